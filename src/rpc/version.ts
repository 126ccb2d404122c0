/** `web3_clientVersion`: coreth answers with avalanchego's semantic version. */
export const CLIENT_VERSION = 'v1.14.2'
