export { BASE62_ALPHABET, randomBase62 } from './random.ts';
export { credentialsEqual, digestsEqual, hashCredential } from './hash.ts';
export { generateAdminApiKey, parseAdminApiKey } from './admin-api-key.ts';
export { generateUserToken, parseUserToken } from './user-token.ts';
export { generateWebhookToken, isWebhookTokenShaped, WEBHOOK_TOKEN_LENGTH } from './webhook-token.ts';
export {
  authenticateAdminApiKey,
  createAdminWithKey,
  issueAdminApiKey,
  MAX_KEY_LIFETIME_DAYS,
  type AuthenticatedAdmin,
  type AuthenticateOptions,
  type CreateAdminWithKeyInput,
  type IssueAdminApiKeyInput,
  type IssuedAdminApiKey,
} from './admin-keys.ts';
