export * from './constants.js';
export * from './account-state.js';
export * from './errors.js';
export * from './schemas/api.js';
export * from './schemas/security.js';
export * from './schemas/fields.js';
export * from './redirects.js';
export * from './validation/index.js';
