/**
 * Test-only key material (generated once, committed, trusted by nothing outside the test pool):
 * the portal JWKS the tests sign tokens with, a rogue key with a known kid but wrong material,
 * the API key encryption key and the (unfunded) relayer key.
 */
export const testKeys = {
  "rs256": {
    "kty": "RSA",
    "n": "4OWvnFqXmqAy41yKHWeLkOr8ATv8xp0z2WdyGY8vuHHAqSN2zIm1_ndYwZZMaNh-KMClbkGQnIc_Huv1RyRceA03L1lcHY08-Q935ubgfi7uOsnrqg-1-ZloQ-DVPF6yM9WlkZishcX0QUt2ZiY0ZnqoGSTO8m1AWqgaSxl5qN0VaV_71ChO-MkKqw7h87TL8zAenkj8QyKZ1fjORr-baMGBCH5gAVq7hibuMP9m46skaYvQKJCmVR0KZrBSrZur_-5VUdrKChuoS0J3wcwJprVsbP48242gxiyYstJ1ysFghKrayl9YxWE2g8yFprG06BXLJrCIc8toxVOXtBLLTw",
    "e": "AQAB",
    "d": "Tpq46FMZjefUIXdkpqZcN4iKD_xheyHSz3fCf4B2U2ceyX8ltJOlUo1wLilUB4kzfxbmO0UbQDpdK3eZQQZKc4Na-GepNIL6_qoTZFbpu_C3P0D353aaSeT-dksM_I60hj10IxFTq2Xm2zN-7HEJ-49_VVpyInVg-s6qcfkzdns3j5a5cKD0LhuF1NBheuX5c-qm8b21pmCs_wtG5KT7XDPQbWvkzt0gZ9gu5CFM4TtbpkWfQJIBE0BCzHPKWKl4vp-iaKs9RO2gxyLqRuNPF6lopK5N8m0nx8SxnrLkd095Nzxnf3poBIgvmYOnTSrvJNk1IdbwcUy7ATteOet94Q",
    "p": "9KZFLnmxdfg0xYfWdoNNzVlPtNX64Mh8at8Pg0eM0BaEr39ASwEx4pygnqhB5I1nlpkxJ0YD4lK-QfFUl71SWYqa-_7wz5uUvbvFaSfl3vn_fCYPBZc4YsRUzWQWkWxGM7MbieiBe4IRDT_CeqlwqG62Jqj2lNxSzfPtCisD0Yk",
    "q": "61TQzgf66vvjdvT4pT_-VmbeH6h33juoLgdhv_HPkpm09GRKavss_ZqMNBUFSw3RUwJi9SvC_wFOBLCQEfkeGXs-o6RB9RC6IOPk2E9QeV2wo0AVhUSceffHdicCIdAkk6GBvW0OFWxwXojTSxBc1D0Ex-4XFw_eknsjoul9OBc",
    "dp": "ZypGOhbvEoQcHL_vXAJ6qIFk7yjcpjVk4dw2OnHNm2Ijia3rerWCR8EsqjrhrnNCn2ryI1GPCb1CpaQSu_oF4-Ri_qi--4zr6CZqVLGSabiaV8vkwcLG8D9CU2pFagVyhRKeJkV5dI-giSm95OPWsfAdt6fAc32FHXwjFQqWjaE",
    "dq": "hsuvSsRxalXbxdCt9-G-6njDtLiH6IidXbgmuo5kymE2sGId6kdzTtROiKqdvI7unrCYRDzL1ctGiBMmgtUB87CPgaZdjWUGaD6BX5GW093hhrD3Yr2ZL5fI7ZmMdBfIS7PQH9OupIDXoJ6ZAL8fnQZSjb6IBVK2t4rHL9K0QgM",
    "qi": "jfH76udkdwroBAUXeng3GEillSvkVX4ZnkmIR7ay8UO9ku-xLGJmhSFCrbcZRz--z3DVbP4cDrDZ2AU7POjzfn1m7Yh6RVm_h8lrICTgp8w8ngikHM-AenaXZamBZFi26A0wrfoDT-nL4o3fhvfn8pSSgKN8ZCbizm5g_gLpBP4",
    "kid": "test-rs256",
    "alg": "RS256"
  },
  "es256": {
    "kty": "EC",
    "x": "upnsfpAvQg94_xW2hc5Ejp8K-zIpExddCSSwxARGKbI",
    "y": "UVXjsGep92X7b-8zbyZ92RwoBEWzJm7w6UrGVEJhGqQ",
    "crv": "P-256",
    "d": "ZP9llNKTdTnp7ZLC0ZE0qSwepeJqUsNhtGG0cAoXg4U",
    "kid": "test-es256",
    "alg": "ES256"
  },
  "rogueRs256": {
    "kty": "RSA",
    "n": "vqE6ZNN_zQmo6_QwC23fuq9r45M6yDzkQk6mVn91izCIig_OUn9KnMevmU60acIi56L2hQyeQUK0vE4Jm1jTisDs2TZj-aGQ16hmF4NvCbGQrioricPmRWjCyC_85p0zvoxE9CGCd9y_PyQSAWbghgAyeskfAAYm5keKiUDy0JEGShbbt0dnPqZOr7QOAJcjMg5-aZ_sc0Ya1VziziKn-E_txe5NBXIAWLQlI0Agy7KyIZr_Y6jbnAVJwCJTuEa8l0c9-4b57E9fRQHqyygQFikn_HtQAmDL82rzZenTsvFIJ92b1gGkNCAgHeYswG1w97dfRtujRhbd_SE02rLauw",
    "e": "AQAB",
    "d": "HmLXyoOWDwpXpUjWsbOxYnIc6fkpeQqPvewIgqgtheLWGN-9HRRSQdxoprDPfD4oTzEAR6QDw9ZMtelgiaUmjysCdftAA2YYDvA2WdAnDm4B6GkraHnUBkNVLRDNKLttKJX2Vc3TnKSQzZFD13pdFq8IXN8bNGdGoxVLRWaXbdwxccaQ9t0rAtEtNqu-2wlKef9RwOyeQonvDTd7AinSH_jh4g0wOf0jZn9zEWJRQGPsOBf6N2eUfuie6VndhKsJsg7H6mBAG7EDdFJ2msRNLOKhU-p-2UuQdgynAGup5PeTFHZjsHy9iV5I7IHIJrlTI0phBCfCfYAJcmhDzGBWkQ",
    "p": "765qplh-kzgEsFN6wB8ewtvoAwzrQD1r5kGyJhorndTVrt7oN1d1jRmY3qhDiOCOh7KWwDCfoXUCDiJ4KDBW5Fnjk57Kods2pDlm5OincHPnDgPdRF5atHnPxO0KO3qDaI060Gaa7ruFR6NFTFnstDA4RoNLRPLM3QWVN3-ysYs",
    "q": "y5vbMUeMuxRQL11p0zjkIMkvhLSDYxGj6RhgnR-sGABvHIKY4UUEzzOE22TioE6CEcGCtrq3rJtpktUwKKaXoIkmTbbTyMIZYGC6gKQZxiol0QdJ1kWttIeulsE_Tn3Rc6Fpm0voAD95U6Z9IYZDVEieANhsg0xab6xh3xM4QZE",
    "dp": "H3_Xqlb1A5oYG6hM-JTecRN_kW8QN9gapx85L4K--rYvAxVuhV9sJogXrCOHBKUmdjUFVOrO_-Qlyf_DtNxtfwNFQnBbBxyNONYGbM0avE-vLQta-BJCb3eW07WnY5u9S29MLHlfoUJpyLlvcRJcZm3z52h36u7R97Y1Hx8cN_M",
    "dq": "JpB9osbXi_OcAGykB6LF6sPQYUVDgXcs4ZCBdCE0mlMyuGawCDLnZ0ttxZRFLHHSRwSs-mlBMss44tvIRFrRa1Gu1JdlY6gH4G5RxN3QF-2RvhawUIpgDUqJsfomQHqqOkl_VC-7YJilJUfqeXgRtpwOeUCExRWoJ3CyFOtyA1E",
    "qi": "cHAI5FzLO16sFyyioF058eF_S7Uu0BV8oERyj3e1kOjm0ao1Gm35HkMEz8-vdkm9frpv-Ty3OGHFqUlq4JIx-cVFmQ6eXevQYdhDR-TKIJ0-d9NksYTQ0MyNEErcb4s5TgleA4UCRu5rFsiHAArt2yCKSTa7T9LVGm4rSnjAXXg",
    "kid": "test-rs256",
    "alg": "RS256"
  },
  "jwks": {
    "keys": [
      {
        "kty": "RSA",
        "n": "4OWvnFqXmqAy41yKHWeLkOr8ATv8xp0z2WdyGY8vuHHAqSN2zIm1_ndYwZZMaNh-KMClbkGQnIc_Huv1RyRceA03L1lcHY08-Q935ubgfi7uOsnrqg-1-ZloQ-DVPF6yM9WlkZishcX0QUt2ZiY0ZnqoGSTO8m1AWqgaSxl5qN0VaV_71ChO-MkKqw7h87TL8zAenkj8QyKZ1fjORr-baMGBCH5gAVq7hibuMP9m46skaYvQKJCmVR0KZrBSrZur_-5VUdrKChuoS0J3wcwJprVsbP48242gxiyYstJ1ysFghKrayl9YxWE2g8yFprG06BXLJrCIc8toxVOXtBLLTw",
        "e": "AQAB",
        "kid": "test-rs256",
        "alg": "RS256",
        "use": "sig"
      },
      {
        "kty": "EC",
        "x": "upnsfpAvQg94_xW2hc5Ejp8K-zIpExddCSSwxARGKbI",
        "y": "UVXjsGep92X7b-8zbyZ92RwoBEWzJm7w6UrGVEJhGqQ",
        "crv": "P-256",
        "kid": "test-es256",
        "alg": "ES256",
        "use": "sig"
      }
    ]
  },
  "encryptionKey": "YvxbQQZipgrBtKuopYOVreLprbblHw3Da/0nz/tHWz4="
,
  "walletMnemonic": "test test test test test test test test test test test junk",
  // The RELAYER_PRIVATE_KEY binding: random and never funded on anvil, so anything that signs with it
  // by accident (e.g. an automatic queue delivery) fails loudly. Tests use fundedRelayer() keys.
  "relayerPrivateKey": "0x19e542eecb1c88c836bad66c86a64ac9c77380e236c886d3187b78d10ce865c5"
};
