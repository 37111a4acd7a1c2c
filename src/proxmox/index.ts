export * from './errors';
export * from './upid';
export * from './client';
export * from './wire';
export * from './tasks';
export * from './cpu-baseline';
export * from './task-watcher';
export * from './guest-data';
