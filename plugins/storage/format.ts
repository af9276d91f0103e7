/** File sizes (spec platform §9): the SDK's formatter, 1024-based up to TB. */
export { formatBytes } from '@decisio/sdk-plugin';
