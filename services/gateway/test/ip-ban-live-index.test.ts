import { describe, expect, it } from 'vitest';
import { IpIndex, parseIpNetwork } from '@switchboard/ip';
import { LiveIpBanIndex, type IpBanEntry } from '../src/ip-bans/index.ts';
import { parseIpBanMessage } from '../src/ip-bans/channel.ts';

function entry(text: string, reason: string | null = text, expiresAtMs: number | null = null): IpBanEntry {
  const network = parseIpNetwork(text);
  if (!network) throw new Error(`bad test network ${text}`);
  return { network, reason, expiresAtMs, createdAtMs: 0 };
}

function match(index: LiveIpBanIndex, query: string, nowMs = 1_000): string | null {
  return index.match(parseIpNetwork(query)!, nowMs)?.reason ?? null;
}

describe('LiveIpBanIndex', () => {
  const base = () =>
    new IpIndex([entry('10.0.0.0/8'), entry('10.1.0.0/16'), entry('10.1.2.3'), entry('2001:db8::/32')]);

  it('sees through removed base entries to the wider ones around them', () => {
    const index = new LiveIpBanIndex(base());
    index.apply({ adds: [], removes: ['10.1.2.3'] });
    expect(match(index, '10.1.2.3')).toBe('10.1.0.0/16');
    index.apply({ adds: [], removes: ['10.1.0.0/16'] });
    expect(match(index, '10.1.2.3')).toBe('10.0.0.0/8');
    index.apply({ adds: [], removes: ['10.0.0.0/8'] });
    expect(match(index, '10.1.2.3')).toBeNull();
    expect(match(index, '2001:db8::1')).toBe('2001:db8::/32');
  });

  it('answers with the narrower of overlay and base, and lets a re-add replace the base entry', () => {
    const index = new LiveIpBanIndex(base());
    index.apply({ adds: [entry('10.1.2.0/24', 'overlay /24')], removes: [] });
    expect(match(index, '10.1.2.9')).toBe('overlay /24');
    expect(match(index, '10.1.2.3')).toBe('10.1.2.3');
    index.apply({ adds: [entry('10.1.0.0/16', 'updated /16', 500)], removes: [] });
    expect(match(index, '10.1.9.9', 100)).toBe('updated /16');
    // The updated ban expired: the stale base copy must not come back.
    expect(match(index, '10.1.9.9', 1_000)).toBe('10.0.0.0/8');
    expect(index.overlaySize).toBe(2);
  });

  it('replays the changes received during a reload on top of the new base', () => {
    const index = new LiveIpBanIndex(base());
    index.apply({ adds: [entry('192.0.2.1')], removes: [] });
    index.replaceBase(new IpIndex([entry('10.0.0.0/8'), entry('192.0.2.1')]), [{ adds: [], removes: ['192.0.2.1'] }]);
    expect(match(index, '192.0.2.1')).toBeNull();
    expect(match(index, '10.1.2.3')).toBe('10.0.0.0/8');
    expect(index.overlaySize).toBe(1);
    expect(index.baseSize).toBe(2);
  });
});

describe('IP ban messages', () => {
  it('parse as `<seq> <json>` and refuse anything else', () => {
    const ok = parseIpBanMessage(
      '7 {"adds":[{"network":"10.0.0.0/8","reason":null,"expires_at_ms":null,"created_at_ms":1}],"removes":["::1"]}',
    );
    expect(ok).toMatchObject({ ok: true, seq: 7 });
    expect(ok.ok && ok.delta.adds[0]!.network.canonical).toBe('10.0.0.0/8');
    expect(parseIpBanMessage('garbage')).toEqual({ ok: false, seq: null });
    expect(
      parseIpBanMessage(
        '8 {"adds":[{"network":"not-an-ip","reason":null,"expires_at_ms":null,"created_at_ms":1}],"removes":[]}',
      ),
    ).toEqual({ ok: false, seq: 8 });
    expect(parseIpBanMessage('9 {')).toEqual({ ok: false, seq: 9 });
  });
});
