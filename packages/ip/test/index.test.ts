import { describe, expect, it } from 'vitest';
import { IpIndex, parseIpNetwork, type IndexedEntry } from '../src/index.ts';

interface Ban extends IndexedEntry {
  label: string;
}

function ban(text: string, expiresAtMs: number | null = null): Ban {
  const network = parseIpNetwork(text);
  if (!network) throw new Error(`bad test address ${text}`);
  return { network, expiresAtMs, label: network.canonical };
}

function matchLabel(index: IpIndex<Ban>, query: string, nowMs = 1_000): string | null {
  return index.match(parseIpNetwork(query)!, nowMs)?.label ?? null;
}

describe('IpIndex', () => {
  const index = new IpIndex<Ban>([
    ban('10.0.0.0/8'),
    ban('10.1.0.0/16'),
    ban('10.1.2.0/24', 500),
    ban('10.1.2.3'),
    ban('10.200.0.0/16'),
    ban('192.168.1.1'),
    ban('2001:db8::/32'),
    ban('2001:db8:1::/48'),
    ban('2001:db8:1::5'),
    ban('fe80::/10'),
  ]);

  it('finds exact single addresses before ranges', () => {
    expect(matchLabel(index, '10.1.2.3')).toBe('10.1.2.3');
    expect(matchLabel(index, '::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(matchLabel(index, '2001:0db8:0001:0000::5')).toBe('2001:db8:1::5');
  });

  it('returns the narrowest live covering range', () => {
    expect(matchLabel(index, '10.1.2.4', 100)).toBe('10.1.2.0/24');
    // The /24 expired at 500 ms: the /16 around it still applies.
    expect(matchLabel(index, '10.1.2.4', 1_000)).toBe('10.1.0.0/16');
    expect(matchLabel(index, '10.1.9.9')).toBe('10.1.0.0/16');
    expect(matchLabel(index, '10.2.0.1')).toBe('10.0.0.0/8');
    expect(matchLabel(index, '10.200.3.4')).toBe('10.200.0.0/16');
    expect(matchLabel(index, '10.255.255.255')).toBe('10.0.0.0/8');
    expect(matchLabel(index, '2001:db8:1:ffff::1')).toBe('2001:db8:1::/48');
    expect(matchLabel(index, '2001:db8:2::1')).toBe('2001:db8::/32');
    expect(matchLabel(index, 'fe80::1')).toBe('fe80::/10');
  });

  it('misses addresses outside every entry and keeps families apart', () => {
    expect(matchLabel(index, '11.0.0.0')).toBeNull();
    expect(matchLabel(index, '9.255.255.255')).toBeNull();
    expect(matchLabel(index, '192.168.1.2')).toBeNull();
    expect(matchLabel(index, '2001:db9::1')).toBeNull();
    expect(matchLabel(index, '::a00:1')).toBeNull(); // 10.0.0.1 written as IPv4-compatible IPv6 is not IPv4
  });

  it('answers whether a whole range is covered', () => {
    expect(matchLabel(index, '10.1.2.0/25')).toBe('10.1.0.0/16');
    expect(matchLabel(index, '10.1.0.0/16')).toBe('10.1.0.0/16');
    expect(matchLabel(index, '10.0.0.0/7')).toBeNull();
    expect(matchLabel(index, '192.168.1.0/31')).toBeNull();
    expect(matchLabel(index, '192.168.1.1/32')).toBe('192.168.1.1');
    expect(matchLabel(index, '2001:db8::/31')).toBeNull();
  });

  it('handles /0 and host-wide entries', () => {
    const everything = new IpIndex<Ban>([ban('0.0.0.0/0'), ban('::/0')]);
    expect(matchLabel(everything, '255.255.255.255')).toBe('0.0.0.0/0');
    expect(matchLabel(everything, '0.0.0.0')).toBe('0.0.0.0/0');
    expect(matchLabel(everything, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('::/0');
    expect(matchLabel(everything, '0.0.0.0/0')).toBe('0.0.0.0/0');
  });

  it('agrees with a brute-force scan on random data', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const entries: Ban[] = [];
    for (let i = 0; i < 300; i++) {
      const address = [0, 0, 0, 0].map(() => Math.floor(random() * 4)).join('.');
      const prefix = 24 + Math.floor(random() * 9);
      entries.push(ban(`${address}/${prefix}`, random() < 0.2 ? 500 : null));
    }
    const randomIndex = new IpIndex(entries);
    for (let i = 0; i < 500; i++) {
      const query = parseIpNetwork([0, 0, 0, 0].map(() => Math.floor(random() * 4)).join('.'))!;
      const live = entries.filter(
        (e) => (e.expiresAtMs ?? Infinity) > 1_000 && e.network.start <= query.start && e.network.end >= query.end,
      );
      const narrowest = live.sort((a, b) => b.network.prefix - a.network.prefix)[0];
      expect(randomIndex.match(query, 1_000)?.network.prefix ?? null).toBe(narrowest?.network.prefix ?? null);
    }
  });
});
