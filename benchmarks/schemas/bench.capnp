# The three workloads for Cap'n Proto (the same fields as schemas/proto.fbe and
# schemas/bench/*.fbe; enums and flags as Int32; an absent asset is hasAsset false).
@0xc4a1f3b2d5e6f708;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fbebench");

struct Balance { currency @0 :Text; amount @1 :Float64; }
struct Order { id @0 :Int32; symbol @1 :Text; side @2 :Int32; type @3 :Int32; price @4 :Float64; volume @5 :Float64; }
struct Account { id @0 :Int32; name @1 :Text; state @2 :Int32; wallet @3 :Balance; asset @4 :Balance; orders @5 :List(Order); }
struct Small { name @0 :Text; spouse @1 :Bool; siblings @2 :Int32; money @3 :Float64; birthday @4 :Int64; }
struct Large { ids @0 :List(Int64); names @1 :List(Text); }
