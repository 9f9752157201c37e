import { describe, expect, it } from 'vitest';
import { Admission, addressKey } from './admission.js';

describe('admission of connections not yet authenticated', () => {
  it('counts IPv6 addresses by their /64 and IPv4 mapped into IPv6 as IPv4, so one subscriber is one address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
  });

  it('refuses past the cap per address and in total, and admits again once released (twice is harmless)', () => {
    const admission = new Admission(() => ({ perAddress: 2, total: 3 }));
    const a1 = admission.admit('2001:db8:1:2::1');
    const a2 = admission.admit('2001:db8:1:2::2');
    expect(admission.admit('2001:db8:1:2::3')).toBe('per-address');
    const b1 = admission.admit('192.0.2.1');
    expect(admission.admit('192.0.2.2')).toBe('total');
    expect(typeof a1).toBe('object');
    if (typeof a1 === 'string' || typeof a2 === 'string' || typeof b1 === 'string') throw new Error('refused');
    a1.release();
    a1.release();
    expect(admission.pending).toBe(2);
    expect(admission.pendingFrom('2001:db8:1:2::9')).toBe(1);
    expect(typeof admission.admit('2001:db8:1:2::3')).toBe('object');
    expect(admission.admit('192.0.2.2')).toBe('total');
  });

  it('sets no cap per address when it is 0', () => {
    const admission = new Admission(() => ({ perAddress: 0, total: 100 }));
    for (let i = 0; i < 50; i += 1) expect(typeof admission.admit('192.0.2.1')).toBe('object');
  });
});
