export { ClientCore, memoryVault, type ClientCoreOptions, type TokenVault } from './core';
