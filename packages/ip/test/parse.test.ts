import { describe, expect, it } from 'vitest';
import { parseIpAddress, parseIpNetwork } from '../src/index.ts';

describe('parseIpNetwork', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['255.255.255.255', '255.255.255.255'],
    ['255.255.255.255/1', '128.0.0.0/1'],
    ['1.2.3.4/32', '1.2.3.4'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8::1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2:3:4:5:6'],
    ['2001:db8::1:2:3:4:5', '2001:db8:0:1:2:3:4:5'],
    ['::', '::'],
    ['::1', '::1'],
    ['::/0', '::/0'],
    ['2001:db8::ffff/32', '2001:db8::/32'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:0102:0304', '1.2.3.4'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:0:0/96', '0.0.0.0/0'],
    ['64:ff9b::1.2.3.4', '64:ff9b::102:304'],
  ])('%s is %s', (input, canonical) => {
    expect(parseIpNetwork(input)?.canonical).toBe(canonical);
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '999.1.1.1',
    '01.2.3.4',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/08',
    '1.2.3.4/-1',
    'beef',
    ':::',
    '1::2::3',
    '12345::',
    'fe80::1%eth0',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8',
    '::1/129',
    'gggg::1',
    '1.2.3.4::',
    '::1.2.3.4.5',
    'localhost',
    '[1.2.3.4',
    '1.2.3.4 5',
  ])('refuses %j', (input) => {
    expect(parseIpNetwork(input)).toBeNull();
  });

  it('computes range bounds', () => {
    const range = parseIpNetwork('192.168.0.0/16')!;
    expect(range.family).toBe(4);
    expect(range.start).toBe(0xc0a80000n);
    expect(range.end).toBe(0xc0a8ffffn);
    const top = parseIpNetwork('255.255.255.128/25')!;
    expect([top.start, top.end]).toEqual([0xffffff80n, 0xffffffffn]);
    const v6 = parseIpNetwork('2001:db8::/127')!;
    expect(v6.end - v6.start).toBe(1n);
  });

  it('parseIpAddress takes single addresses only', () => {
    expect(parseIpAddress('1.2.3.4/32')?.canonical).toBe('1.2.3.4');
    expect(parseIpAddress('1.2.3.0/24')).toBeNull();
    expect(parseIpAddress('::ffff:7.7.7.7')?.family).toBe(4);
  });
});
