import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, hasPermission, Permission } from '@switchboard/contracts';
import { computePermissions, NO_OVERWRITES } from '../src/permissions/index.ts';

const { ADMINISTRATOR, SEND_MESSAGES, VIEW_CHANNEL, MANAGE_WEBHOOKS } = Permission;
const none = { allow: 0n, deny: 0n };

describe('computePermissions', () => {
  it('gives the owner and administrators everything, overwrites notwithstanding', () => {
    const denyAll = {
      everyone: { allow: 0n, deny: ALL_PERMISSIONS },
      roles: none,
      member: { allow: 0n, deny: ALL_PERMISSIONS },
    };
    expect(computePermissions({ isOwner: true, rolePermissions: 0n }, denyAll)).toBe(ALL_PERMISSIONS);
    expect(computePermissions({ isOwner: false, rolePermissions: ADMINISTRATOR }, denyAll)).toBe(ALL_PERMISSIONS);
  });

  it('is the OR of the roles outside a channel', () => {
    const plain = computePermissions({ isOwner: false, rolePermissions: SEND_MESSAGES }, NO_OVERWRITES);
    expect(plain).toBe(SEND_MESSAGES);
    expect(hasPermission(plain, MANAGE_WEBHOOKS)).toBe(false);
    expect(MANAGE_WEBHOOKS).toBe(536870912n);
  });

  it('applies each layer deny then allow, the more specific layer last', () => {
    const base = { isOwner: false, rolePermissions: VIEW_CHANNEL | SEND_MESSAGES };
    // A layer that denies and allows one bit keeps it (allow is applied after deny).
    expect(
      computePermissions(base, { everyone: { allow: VIEW_CHANNEL, deny: VIEW_CHANNEL }, roles: none, member: none }),
    ).toBe(VIEW_CHANNEL | SEND_MESSAGES);
    expect(
      computePermissions(base, {
        everyone: { allow: 0n, deny: VIEW_CHANNEL },
        roles: { allow: VIEW_CHANNEL, deny: 0n },
        member: none,
      }),
    ).toBe(VIEW_CHANNEL | SEND_MESSAGES);
    expect(
      computePermissions(base, {
        everyone: none,
        roles: { allow: VIEW_CHANNEL, deny: 0n },
        member: { allow: 0n, deny: VIEW_CHANNEL },
      }),
    ).toBe(SEND_MESSAGES);
    expect(
      computePermissions(base, { everyone: { allow: MANAGE_WEBHOOKS, deny: 0n }, roles: none, member: none }),
    ).toBe(VIEW_CHANNEL | SEND_MESSAGES | MANAGE_WEBHOOKS);
  });

  it('reads bit 63 stored as a negative bigint as the unsigned bit', () => {
    expect(computePermissions({ isOwner: false, rolePermissions: -(1n << 63n) }, NO_OVERWRITES)).toBe(1n << 63n);
  });
});
