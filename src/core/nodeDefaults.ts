/**
 * The staking keys and NodeIDs of the default network's nodes (seed `l1sim`, nodes 0–9), by
 * the 32-byte seed each node's keys derive from (`createNodeIdentity`). Deriving them takes
 * HKDF and a reduction mod n, libsecp256k1, whose binding builds its tables when it loads (~8 ms),
 * then ripemd160 and cb58: known in advance, a start that signs nothing loads none of it (the keys
 * derive from a public seed: they are no secret). `test/core/keys.test.ts` derives them again.
 *
 * Each row: seed hex, staking private key hex, compressed secp256k1 staking public key hex, NodeID
 * bytes hex, NodeID.
 */
export const DEFAULT_NODE_STAKING_KEYS: readonly (readonly [seed: string, stakingPrivateKey: string, stakingPublicKey: string, nodeIdBytes: string, nodeId: string])[] = [
  ['feaeb466845da5db2c4c27a16eed6a34b40291f7141fef6deb1f47869a6feea8', '850e94b12fa12fcd44abdd40a3be7f3183767bb058b3be3fdd1ddaa57a0cb369', '03a170fe1381ff57f0d825c21ab2b729610094dfc811afb5b8e2c1e85fd620f8a0', '695bf507e9052d4a6e5f87292d0f34f979c14446', 'NodeID-Ac67SMV2psKsq5zGMYj99UfEVyczTPfeW'],
  ['40867612ccc7299e17c8cadd1572f3dd8c8c8af1edc08775955fa75179d54303', '1b687bb30421d588d8e20840607d0f4a100a5b4d90aea0f12f97c22ea8ea64fe', '03594c035ee54c04f6b3ff8505aff34fdfa3b85cdf6d7f20795bb263c474201abf', '6a8de708da14f2cd0c3c04ac363e18c1d7f38bbb', 'NodeID-AiQctgfnZddFxgoWsebBX1VUbgrRK5jUP'],
  ['055cab2ba4c0fbc1b2d79de35baa784080f55f419eb96c84b906e9835cba3b9d', '34aa1065845a911b5c33b05fbd6066a15ee91622bac4882cd1df76691fb8f362', '03fc9a75d84eee0c09e05888ce1cf881e3872d05a7284639172c50ca8cd1082988', 'c9bfa3f6ffd55ca7588119e8db7622d78f394f4d', 'NodeID-KPkPyQG92XnRZHmgb5RZMwrzL7ghdS9sb'],
  ['c6a23936b258ff7fc7c5ad9362d5086b8faa71a8104e4d4297efb9facfd3e53b', 'db05bbc8abce4519e77d13e0bdd0f23d20823b3d3925ae2969841070643c6889', '038f423d6c5e106e48d93bf6b202bf142200f7b3151267049fea98738bd522246b', 'da1b2336b19abe4a0673f3634e4af81d4fd5f3f3', 'NodeID-LtEpNRJBu5ghHgKtE2piSy68zCSkTeXaM'],
  ['296a955b4767fb93cdeea7b053cff360dc4cae90c2ba0b9a8aa8676c82c637c1', '82ac4125e1251e23876fd70d28a2db1fc4ac4c2321640ed1bb67cfb6fbb1b204', '035fe130b13be718f5e086a1e8a619a93835d996aec76548ba5f840b84b1aaf176', 'd34048bf7380efa9e6044e603e5ca6bcbae54ba3', 'NodeID-LFzb264QJ2btQFbjtRerTdtLZzqApP9mv'],
  ['a81be8935f74cd722eb9104ccd5c2f7066b3d842a1c64dbdcc3414b082cb72c4', '0c6364552074637b07575403b5a20717097fdc830f0134fc291b74083114e5c7', '032b71eddc402087f9baff3f6e8ac307385bb21f2dfdb8f87db5ad3959d752dad0', 'a950f8ab5642550739dc9d815e59bfe269217a5e', 'NodeID-GSGCQgkk1k1VeMP2Y9PwLVnCH7ECRVf4h'],
  ['5fd0d9268b20424a3f41250af4bc7d72c16fa6abf8e93690543061b210ca0ab6', 'a4b04d14475ffd7ee5c1a1e21abd5e96073bbb44afaacf56440d8e9ea6cb7cc1', '02647f1a5dec62c2e544c65577245f3f8e3a75387d9330260501a838137371e680', 'ba6cfd1fb47113899d5cad3f9234cc7b55697c28', 'NodeID-HzjFMTBT29vr6m5JyGuTj5p5qUmbuGUzN'],
  ['39c40b7e7429ecbe819c695a023da3d264acc02c72989aa98dfd06d2f367351a', '67e944f79e0b8034f83171e8bd29d2bca81c2235ba3dba2fa6b7fe613fb3c7fe', '02ba3f2aa21d2ab4fc5e26c82689076f2207d39878eaa9da970079b166355b37fa', '0cf0d2acbf4586c3dacca797e4af59fcd3947fde', 'NodeID-2BRbyUk5Lg7tC5efr5qTsVeMHwLVXgRD9'],
  ['5d691a7d0fb327dcb105a634c09a7b8734eebf00b427423daa2ac85f47d423d6', '7cac742001607363fb5812819d5d6596e1dd3528e0ce981481a6dac69d06ace7', '0242c7b1d231cec8650bf354c71825c997a714e1dad16dd621dc4b5d8ac1c6b124', 'dc0b26b38ee3756a12fe265347868ffc65343cbb', 'NodeID-M4V211G2aDEyDjr7C7pm9NTbLupoesCTX'],
  ['444a2b46364c39d1b85356f541910c9fd60f5a62f3b6c38e0ba0032e6ee8c60c', '3db21206646500e79c4b12c61f4a733e6c31160e0917019dcff54c86bbd7bc05', '032c1dea5a98ad755573139523b629e2027c6296d8f533250ffc95c04df9a241ba', '62421e51319eed9dc38eef9fb7db263d63804505', 'NodeID-9xYRniThdpSf7kcVM3ofcFLjhurVHMq89'],
]

/**
 * The built-in ICM relayer's account on the default seed (its key is `derive('icm-relayer')` of the
 * seed `l1sim`, `src/network/relayer.ts`): every start names its address in the banner, which took
 * libsecp256k1's load for one public key. Private key hex, lower-case address.
 */
export const DEFAULT_RELAYER_ACCOUNT = ['5b3fdc380ffcf5723ce4f76369b6395a9e8f6a18e61f7f0253d06b6bf5443cb1', '0x544d3b3193c7a7c1ab6e9df4cb4acd7edcb626a6'] as const
