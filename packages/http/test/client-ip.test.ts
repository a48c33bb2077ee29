import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { clientIp, normalizeIp, UNKNOWN_CLIENT_IP } from '../src/client-ip.ts';
import { startApp } from './start-app.ts';

function request(remoteAddress: string | undefined, forwardedFor?: string | string[]) {
  return {
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    socket: { remoteAddress },
  };
}

describe('clientIp', () => {
  it('uses the socket address and never reads X-Forwarded-For with 0 trusted hops', () => {
    expect(clientIp(request('10.0.0.5'), 0)).toBe('10.0.0.5');
    expect(clientIp(request('10.0.0.5', '203.0.113.7'), 0)).toBe('10.0.0.5');
  });

  it.each([
    // [X-Forwarded-For, hops, expected]
    ['203.0.113.7', 1, '203.0.113.7'],
    ['6.6.6.6, 203.0.113.7', 1, '203.0.113.7'],
    ['6.6.6.6, 203.0.113.7, 10.0.0.2', 2, '203.0.113.7'],
    ['6.6.6.6,203.0.113.7 ,  10.0.0.2', 2, '203.0.113.7'],
    // Fewer entries than trusted proxies: the chain is the client's own writing.
    ['203.0.113.7, 10.0.0.2', 3, '10.0.0.1'],
    ['6.6.6.6', 2, '10.0.0.1'],
    ['6.6.6.6, , 203.0.113.7', 1, '203.0.113.7'],
    ['::ffff:203.0.113.7', 1, '203.0.113.7'],
    ['2001:DB8:0:0::1', 1, '2001:db8::1'],
    ['[2001:db8::1]:443', 1, '2001:db8::1'],
    ['203.0.113.7:5123', 1, '203.0.113.7'],
  ] as const)('X-Forwarded-For %j with %i hops is %s', (forwardedFor, hops, expected) => {
    expect(clientIp(request('10.0.0.1', forwardedFor), hops)).toBe(expected);
  });

  it('treats repeated X-Forwarded-For headers as one list', () => {
    expect(clientIp(request('10.0.0.1', ['6.6.6.6', '203.0.113.7, 10.0.0.2']), 2)).toBe('203.0.113.7');
  });

  it('falls back to the socket address without a usable header', () => {
    expect(clientIp(request('10.0.0.1'), 1)).toBe('10.0.0.1');
    expect(clientIp(request('10.0.0.1', ' , '), 1)).toBe('10.0.0.1');
    expect(clientIp(request('10.0.0.1', 'not-an-ip'), 1)).toBe('10.0.0.1');
  });

  it('normalises the socket address and reports a closed socket as unknown', () => {
    expect(clientIp(request('::ffff:127.0.0.1'), 0)).toBe('127.0.0.1');
    expect(clientIp(request(undefined), 0)).toBe(UNKNOWN_CLIENT_IP);
  });

  it('resolves a real connection to an IPv6 listener as plain IPv4', async () => {
    let seen = '';
    const app = await startApp((server) => {
      server.get('/', (req, res) => {
        seen = clientIp(req, 0);
        res.json({});
      });
    }, '::');
    try {
      // Connect over IPv4 to the dual-stack listener: the socket reports ::ffff:127.0.0.1.
      await call('GET', app.url.replace('[::]', '127.0.0.1'), { headers: { 'x-forwarded-for': '6.6.6.6' } });
      expect(seen).toBe('127.0.0.1');
    } finally {
      await app.close();
    }
  });
});

describe('normalizeIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:0102:0304', '1.2.3.4'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
    ['::1', '::1'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['1.2.3', null],
    ['01.2.3.4', null],
    ['256.1.1.1', null],
    ['example.com', null],
    ['', null],
  ] as const)('%j is %j', (input, expected) => {
    expect(normalizeIp(input)).toBe(expected);
  });
});
