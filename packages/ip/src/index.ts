export { parseIpNetwork, parseIpAddress, formatAddress, type IpNetwork, type IpFamily } from './parse.ts';
export { IpIndex, type IndexedEntry } from './index-structure.ts';
export { CompactIpIndex, type EntryTable, type EntryTables } from './compact-index.ts';
export { CompactIpIndexBuilder, resized } from './builder.ts';
export { runInSlices, runToEnd, STEP_SIZE, type Steps } from './stepwise.ts';
export { formatNetworkWords, readInetBinary, type AddressWidth, type StoredNetwork } from './words.ts';
