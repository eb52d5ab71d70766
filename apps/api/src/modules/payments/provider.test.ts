import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents, headerValue } from './wire';

describe('provider amounts', () => {
  it('parses decimal amounts to cents by string arithmetic', () => {
    expect(decimalToCents('700.00')).toBe(70_000);
    expect(decimalToCents('700')).toBe(70_000);
    expect(decimalToCents('700.5')).toBe(70_050);
    expect(decimalToCents(' 0.07 ')).toBe(7);
    expect(decimalToCents('1200.000000')).toBe(120_000);
    expect(decimalToCents(12_345.67)).toBe(1_234_567);
    expect(decimalToCents(0.29)).toBe(29);
    expect(decimalToCents(1.005)).toBeNull();
  });

  it('refuses what is not an exact non-negative amount', () => {
    for (const bad of ['700.001', '-700', '7e2', '', '.5', '700.', 'abc', Number.NaN, Infinity, 1e21, null, undefined, {}, '99999999999999999.00']) {
      expect(decimalToCents(bad)).toBeNull();
    }
  });

  it('formats cents as a two-decimal string and refuses non-integers', () => {
    expect(centsToDecimal(70_000)).toBe('700.00');
    expect(centsToDecimal(1_234_567)).toBe('12345.67');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(() => centsToDecimal(1.5)).toThrow();
    expect(() => centsToDecimal(-1)).toThrow();
  });

  it('reads headers whatever their case, first value when repeated', () => {
    expect(headerValue({ 'BTCPay-Sig': ['a', 'b'] }, 'btcpay-sig')).toBe('a');
    expect(headerValue({ 'x-nowpayments-sig': 'c' }, 'X-NOWPayments-Sig')).toBe('c');
    expect(headerValue({}, 'x')).toBeUndefined();
  });
});
