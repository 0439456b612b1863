# The addon: native/*.c plus every core/src/*.c compiled in (scripts/core-dir.js finds the
# core: ./core in a packed tarball, ../../core in the repository). Only the module's
# init symbol is exported (-fvisibility=hidden; FBE_STATIC keeps the core's FBE_API
# functions hidden too). Built by scripts/build.js with node-gyp against the headers of
# the Node that runs the install: nothing is downloaded. The core comes first, so that
# where its code lands does not move with the size of native/ (the benchmark's small
# cases were seen to swing 10% with that alone).
{
  "variables": {
    "fbe_core": "<!(node scripts/core-dir.js)"
  },
  "targets": [
    {
      "target_name": "fbe",
      "sources": [
        "<!@(node scripts/core-dir.js --sources)",
        "native/bind.c", "native/convert.c", "native/errors.c", "native/module.c",
        "native/ops.c", "native/protocol.c", "native/rpc.c", "native/view.c"
      ],
      "include_dirs": ["<(fbe_core)/include", "<(fbe_core)/src"],
      "defines": ["NAPI_VERSION=8", "FBE_STATIC"],
      "cflags_c": ["-std=c11", "-O3", "-fvisibility=hidden", "-Wno-unused-parameter",
                   "-Wno-missing-field-initializers", "-Wno-sign-compare"],
      "cflags!": ["-fno-exceptions"],
      "libraries": ["-lm"],
      "conditions": [
        ["OS=='mac'", {
          "xcode_settings": {
            "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
            "OTHER_CFLAGS": ["-std=c11", "-O3"]
          }
        }],
        ["OS=='win'", {
          "libraries!": ["-lm"],
          "msvs_settings": {"VCCLCompilerTool": {"AdditionalOptions": ["/std:c11"]}}
        }]
      ]
    }
  ]
}
