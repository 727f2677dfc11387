export * from './contract';
export * from './tournaments';
export { dispatchCall } from './dispatch';
