/**
 * A hash tag that puts a key in the same Redis Cluster slot as `key`: a cluster hashes only
 * what is between a key's first `{` and the first `}` after it, when that is not empty, and
 * the whole key otherwise. For keys written by one script together with `key` (a cluster
 * refuses a script whose keys are in different slots) whose own names must not change.
 */
export function sameSlotTag(key: string): string {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  if (close > open + 1) return `{${key.slice(open + 1, close)}}`;
  // The whole key is hashed: as a tag it must not hold a `}`, which would end the tag early.
  if (key.includes('}')) throw new Error(`no hash tag shares a slot with "${key}": give it a {hash tag} of its own`);
  return `{${key}}`;
}
