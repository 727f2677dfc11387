// ipcMain (electronjs.org/docs/latest/api/ipc-main)
import { EventEmitter } from 'node:events';

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
export const invokeHandlers = new Map<string, InvokeHandler>();

export const ipcMain = Object.assign(new EventEmitter(), {
  // electronjs.org/docs/latest/api/ipc-main#ipcmainhandlechannel-listener: "Adds a handler for an invokable
  // IPC. This handler will be called whenever a renderer calls ipcRenderer.invoke(channel, ...args). If
  // listener returns a Promise, the eventual result of the promise will be returned as a reply to the
  // remote caller. Otherwise, the return value of the listener will be used as the value of the reply."
  // fake: a second handler for one channel throws, as Electron does ("Attempted to register a second handler").
  handle(channel: string, listener: InvokeHandler): void {
    if (invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    invokeHandlers.set(channel, listener);
  },
  // electronjs.org/docs/latest/api/ipc-main#ipcmainremovehandlerchannel: "Removes any handler for channel, if present."
  removeHandler(channel: string): void {
    invokeHandlers.delete(channel);
  },
});
