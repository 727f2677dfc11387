// The child side of the fake utilityProcess (fake-electron.ts): what Electron gives a utility process,
// made over the Node IPC channel of child_process.fork. Loaded with --import before the entry.
import { EventEmitter } from 'node:events';

const send = process.send.bind(process);
const port = new EventEmitter();
// electronjs.org/docs/latest/api/parent-port#parentportpostmessagemessage: "Sends a message from the process to its parent."
port.postMessage = (message) => {
  if (process.connected) send(message);
};
// electronjs.org/docs/latest/api/parent-port#event-message: "Emitted when the process receives a message."
// Returns messageEvent { data, ports }. fake: what arrives before the entry listens waits for it.
const queued = [];
process.on('message', (data) => {
  if (port.listenerCount('message') === 0) queued.push(data);
  else port.emit('message', { data, ports: [] });
});
port.on('newListener', (name) => {
  if (name !== 'message') return;
  setImmediate(() => {
    for (const data of queued.splice(0)) port.emit('message', { data, ports: [] });
  });
});
// electronjs.org/docs/latest/api/process#processparentport: "In the utility process, this is the
// ParentPort object which allows communication with the parent process" (null elsewhere).
Object.defineProperty(process, 'parentPort', { value: port, enumerable: true });
// A utility process is not a Node fork: it has no process.send (child.ts must use parentPort).
process.send = undefined;
// fake: Electron ends its utility processes with the app (they are Chromium service processes); here
// the channel to the fake main closing means the app is gone, and the child ends at once, unclean.
process.on('disconnect', () => process.exit(1));
