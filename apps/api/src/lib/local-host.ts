import { BlockList, isIP } from 'node:net';

/**
 * Address ranges that never leave the deployment's own machine or network: loopback, the private ranges
 * (RFC 1918, RFC 4193 unique-local) and link-local. BlockList also matches IPv4-mapped IPv6 (`::ffff:10.0.0.1`)
 * against the IPv4 ranges.
 */
const localRanges = new BlockList();
localRanges.addSubnet('127.0.0.0', 8, 'ipv4');
localRanges.addSubnet('10.0.0.0', 8, 'ipv4');
localRanges.addSubnet('172.16.0.0', 12, 'ipv4');
localRanges.addSubnet('192.168.0.0', 16, 'ipv4');
localRanges.addSubnet('169.254.0.0', 16, 'ipv4');
localRanges.addAddress('::1', 'ipv6');
localRanges.addSubnet('fc00::', 7, 'ipv6');
localRanges.addSubnet('fe80::', 10, 'ipv6');

/**
 * Whether a URL's host (WHATWG `URL.hostname`: lower case, IPv6 in brackets, numeric IPv4 forms already
 * normalised) stays on the deployment's own network, so plain http to it does not cross the internet:
 * `localhost`, a loopback, private or link-local address, or a single-label name such as `minio` or `btcpay`
 * (a container or service name, resolved by the deployment's own DNS). A name with a dot, a trailing one
 * included, is a public name and is not local, whatever it resolves to today.
 */
export function isLocalNetworkHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = isIP(host);
  if (family !== 0) return localRanges.check(host, family === 4 ? 'ipv4' : 'ipv6');
  if (host === '') return false;
  return host === 'localhost' || !host.includes('.');
}
