import { storageKeys } from '@switchboard/contracts';
import type { Storage } from '@switchboard/storage';
import type { AvatarImage } from './avatar-image.ts';

/**
 * Stores the image under `storageKeys.webhookAvatar` (derived from the content, so storing the
 * same image twice writes the same object) and returns its hash. Previous avatars are kept: messages snapshot the
 * avatar hash at send time and keep showing it after the webhook changes or is deleted.
 */
export async function storeAvatar(storage: Storage, webhookId: string, image: AvatarImage): Promise<string> {
  await storage.upload(storageKeys.webhookAvatar(webhookId, image.hash), image.bytes, {
    contentType: image.contentType,
  });
  return image.hash;
}

/** Best effort: removes an avatar stored for a webhook that was then not created. */
export async function discardAvatar(storage: Storage, webhookId: string, hash: string): Promise<void> {
  await storage.deleteObjects([storageKeys.webhookAvatar(webhookId, hash)]).catch(() => undefined);
}
