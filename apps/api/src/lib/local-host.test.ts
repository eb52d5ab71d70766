import { describe, expect, it } from 'vitest';
import { isLocalNetworkHost } from './local-host';

const hostOf = (url: string) => new URL(url).hostname;

describe('isLocalNetworkHost', () => {
  it.each([
    'http://localhost:3000',
    'http://127.0.0.1',
    'http://127.8.9.10:8080',
    'http://[::1]:9000',
    'http://10.0.0.5',
    'http://10.255.255.255',
    'http://172.16.0.1',
    'http://172.31.255.254',
    'http://192.168.1.20:9000',
    'http://169.254.10.1',
    'http://[fd12:3456:789a::1]',
    'http://[fc00::1]',
    'http://[fe80::1]',
    'http://[::ffff:10.0.0.1]',
    'http://minio:9000',
    'http://btcpay',
    'http://MinIO:9000',
    // The URL parser turns the decimal form into 127.0.0.1.
    'http://2130706433/',
  ])('counts %s as the deployment’s own network', (url) => {
    expect(isLocalNetworkHost(hostOf(url))).toBe(true);
  });

  it.each([
    'http://btcpay.example.com',
    'http://minio.internal',
    'http://minio.',
    'http://localhost.',
    'http://8.8.8.8',
    'http://172.15.255.255',
    'http://172.32.0.1',
    'http://192.169.0.1',
    'http://11.0.0.1',
    'http://[2001:db8::1]',
    'http://[::ffff:8.8.8.8]',
    'http://[fe00::1]',
  ])('counts %s as outside it', (url) => {
    expect(isLocalNetworkHost(hostOf(url))).toBe(false);
  });

  it('is false for an empty host', () => {
    expect(isLocalNetworkHost('')).toBe(false);
  });
});
