export { parseIpNetwork, parseIpAddress, formatAddress, type IpNetwork, type IpFamily } from './parse.ts';
export { IpIndex, type IndexedEntry } from './index-structure.ts';
