export * from './rest-query.js';
export * from './rest-syntax.js';
export * from './parse-rest-query.js';
export * from './parse-rest-headers.js';
export * from './format-rest-query.js';
export * from './data-api-target.port.js';
