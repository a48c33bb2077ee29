export * from './message.ts';
export * from './limits/index.ts';
export * from './execute.ts';
export * from './codehost/index.ts';
export * from './errortracker/index.ts';
export * from './chatapp/index.ts';
export * from './signatures.ts';
export { isStorableText, normaliseText, storableStrings } from './text.ts';
export { storableString } from './schema-helpers.ts';
