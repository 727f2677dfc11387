export * from './contract';
export { dispatchCall } from './dispatch';
