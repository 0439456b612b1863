// Type test (tsc --noEmit -p test/types): every public call of index.d.ts, and
// `@ts-expect-error` lines that prove wrong uses are rejected. Not run, only checked.
import { PassThrough } from 'stream';
import * as fbe from 'fbe';
import {
  FbeError, Schema, Sender, Receiver, Struct, Enum, StructClass, Instance, EnumObject, codes,
  FieldInfo, TypeInfo, PackageInfo, Bytes, JsonValue, Kind, StatusName, Limits,
  View, ListView, MapView, StructView, ViewOptions,
  Client, Server, Proxy, Peer, ProxyFrame, RejectedError, TimeoutError, ResetError, ClientOptions, RequestOptions,
  ServerOptions, ProxyOptions, RequestHandler, LogHook, Time, FrameWriter,
} from 'fbe';

// ---- loading
const schema: Schema = fbe.load('schemas/proto.fbe', { include: ['schemas'] });
const fromText: Schema = fbe.loadString('package t\nstruct T { int32 a; }', { name: 't.fbe', include: [] });
const byPackage: Schema = fbe.loadPackage('proto', { include: ['schemas'] });
const root: string = schema.root;
const packages: readonly PackageInfo[] = schema.packages;
const firstImports: readonly string[] = packages[0].imports;
const warnings: readonly string[] = schema.warnings;
const names: string[] = schema.names();
const version: string = fbe.version;
// @ts-expect-error the path is a string
fbe.load(42);
// @ts-expect-error include is a list of directories
fbe.load('x.fbe', { include: 'schemas' });
// @ts-expect-error no such option
fbe.loadString('package t', { nmae: 'x' });
// @ts-expect-error a package name is needed
fbe.loadPackage();

// ---- struct classes: destructured (untyped) and typed through schema.struct<T>()
const { Account, Balance, State } = schema;
const acc = new Account({ id: 1, name: 'Test', state: State.good, wallet: new Balance({ currency: 'USD', amount: 1000 }) });
const bytes: Buffer = acc.encode();
const finalBytes: Buffer = acc.encode({ final: true });
const back = Account.decode(bytes);
const ok: boolean = Account.verify(bytes);
const text: string = back.toJsonString();
const same = Account.fromJsonString(text);
const plainBytes: Buffer = schema.encode('Account', { id: 1, name: 'Test' });

interface BalanceFields { currency: string; amount: number }
interface OrderFields { id: number; symbol: string; side: number; type: number; price: number; volume: number }
interface AccountFields {
  id: number; name: string; state: number; wallet: BalanceFields; asset: BalanceFields | null; orders: OrderFields[];
}
const TypedAccount: StructClass<AccountFields> = schema.struct<AccountFields>('Account');
const typed: Instance<AccountFields> = new TypedAccount({ id: 2, name: 'Typed', asset: null });
const id: number = typed.id;
const orders: OrderFields[] = typed.orders;
const typedBack: Instance<AccountFields> = TypedAccount.decode(typed.encode(), { final: false, trusted: true });
const size: number = TypedAccount.validate(new Uint8Array(typed.encode()));
const fromArrayBuffer = TypedAccount.decode(new ArrayBuffer(8) as Bytes);
const fields: readonly FieldInfo[] = TypedAccount.fields;
const fieldType: TypeInfo = fields[0].type;
const kind: Kind = fieldType.kind;
const meta: [string, string, string, number, boolean] =
  [TypedAccount.typeName, TypedAccount.fullName, TypedAccount.packageName, TypedAccount.typeId, TypedAccount.isMessage];
const equal: boolean = typed.equals(typedBack);
const str: string = typed.toString();
const json: { [field: string]: JsonValue } = typed.toJSON();
const copy: Instance<AccountFields> = typed.clone();

// ---- views
const view: StructView<AccountFields> = TypedAccount.view(typed.encode(), { model: 'final', limits: { maxDepth: 8 } });
const viewName: string = view.name;
const viewCurrency: string = view.wallet.currency;
const viewAsset: StructView<BalanceFields> | null = view.asset;
const viewOrders: ListView<StructView<OrderFields>, OrderFields[]> = view.orders;
const firstPrice: number | undefined = viewOrders.at(0)?.price;
for (const o of view.orders) { const s: string = o.symbol; }
const viewValue: Instance<AccountFields> = view.toValue();
const viewSame: boolean = view.equals(typed);
const viewText: string = view.toString() + view.toJson({ pretty: true });
const untypedView: StructView = schema.view('Account', bytes);
const asView: View = untypedView;
const viewOptions: ViewOptions = { model: 'standard' };
const mapView: MapView<string, number> | null = null;
// @ts-expect-error a view is read-only
view.name = 'x';
// @ts-expect-error the model is 'standard' or 'final'
TypedAccount.view(bytes, { model: 'compact' });
const isStruct: boolean = typed instanceof Struct;
const pretty: string = typed.toJsonString({ pretty: true });
const hash: bigint = typed.hashKey();
const data: { [field: string]: any } = typed.toObject();
const fromData: Instance<AccountFields> = TypedAccount.fromObject(data);
const order: -1 | 0 | 1 = TypedAccount.compare(typed, typedBack);
const lenient: Instance<AccountFields> = TypedAccount.fromJsonString('{"id":1,"newer":2}', { ignoreUnknown: true });
// @ts-expect-error ignoreUnknown is a boolean
TypedAccount.fromJsonString('{}', { ignoreUnknown: 'yes' });
// @ts-expect-error id is a number
new TypedAccount({ id: 'one' });
// @ts-expect-error no such field
new TypedAccount({ idd: 1 });
// @ts-expect-error decode takes bytes
TypedAccount.decode('not bytes');
// @ts-expect-error trusted is a boolean
TypedAccount.decode(typed.encode(), { trusted: 'yes' });
// @ts-expect-error final is a boolean
typed.encode({ final: 'yes' });
// @ts-expect-error pretty is a boolean
typed.toJsonString({ pretty: 1 });
// @ts-expect-error verify returns a boolean, not a size
const wrongSize: number = TypedAccount.verify(typed.encode());
// @ts-expect-error the struct class is not callable without new
TypedAccount({ id: 1 });

// ---- schema-level calls
const decoded = schema.decode('Account', bytes, { final: false });
const verified: boolean = schema.verify(TypedAccount, bytes);
const modelSize: number = schema.validate('Account', bytes);
const jsonText: string = schema.toJsonString('Account', { id: 3 }, { pretty: false });
const fromJson = schema.fromJsonString('Account', jsonText);
const byName = schema.get('proto.Account');
const known: boolean = schema.has('proto.Acount');
// @ts-expect-error the value to encode is an object
schema.encode('Account', 5);
// @ts-expect-error options are an object
schema.decode('Account', bytes, true);

// ---- enums and flags
const StateTyped: EnumObject<'good' | 'bad', number> = schema.enum<'good' | 'bad'>('State');
const good: number = StateTyped.good;
const goodName: string | undefined = StateTyped.nameOf(good);
const formatted: string = StateTyped.format(6);
const parsed: number = StateTyped.parse('initialized|calculated');
const has: boolean = StateTyped.has(6, 2);
const entries: Array<[string, number]> = StateTyped.entries();
const enumMeta: [string, string, boolean] = [StateTyped.name, StateTyped.fullName, StateTyped.isFlags];
const isEnum: boolean = StateTyped instanceof Enum;
const Big = schema.enum<'FLAG_VALUE_1', bigint>('FlagsTyped');
const bigValue: bigint = Big.FLAG_VALUE_1;
// @ts-expect-error no such member
StateTyped.ugly;
// @ts-expect-error nameOf takes a value
StateTyped.nameOf('good');
// @ts-expect-error members are read-only
StateTyped.good = 1;

// ---- errors
try {
  Account.decode(Buffer.alloc(3));
} catch (e) {
  if (e instanceof FbeError) {
    const path: string = e.path;
    const offset: number | null = e.offset;
    const code: StatusName | 'FBE_ERR_UNKNOWN' = e.code;
    const status: number = e.status;
    const reason: string = e.reason;
    const diagnostics: string[] | undefined = e.diagnostics;
    const isError: boolean = e instanceof Error;
    const malformed: boolean = status === codes.FBE_ERR_MALFORMED;
    // @ts-expect-error offset may be null
    const n: number = e.offset;
    // @ts-expect-error no such status name
    codes.FBE_ERR_NOPE;
  }
}

// ---- limits
const limits: Limits = { maxDepth: 64, maxMemory: 1 << 20, maxModelSize: 1n << 20n };
const limited: Instance<AccountFields> = TypedAccount.decode(typed.encode(), { trusted: false, limits });
const limitedOk: boolean = TypedAccount.verify(typed.encode(), { final: false, limits: { maxModelSize: 4096 } });
const limitedSize: number = schema.validate('Account', typed.encode(), { limits: { maxDepth: 8 } });
const limitedJson = TypedAccount.fromJsonString('{}', { limits: { maxMemory: 65536 } });
const limitedJson2 = schema.fromJsonString('Account', '{}', { limits });
const limitedReceiver = new Receiver(schema, { limits: { maxModelSize: 1 << 16 } });
// @ts-expect-error limits are integers (numbers or bigints)
TypedAccount.decode(typed.encode(), { limits: { maxDepth: '64' } });
// @ts-expect-error limit names are camelCase
TypedAccount.decode(typed.encode(), { limits: { max_depth: 64 } });

// ---- protocol
const frames: Buffer[] = [];
const sender = new Sender(schema, { package: 'proto', final: false, write: (frame: Buffer) => frames.push(frame) });
const toStream = new Sender(schema, { write: new PassThrough() });
const frame: Buffer = sender.send(new schema.OrderMessage({ body: { id: 1 } }));
const frame2: Buffer = sender.send('OrderMessage', { body: { id: 2 } });
const sent: number = sender.bytes;
const senderInfo: [Schema, string, boolean] = [sender.schema, sender.package, sender.final];
const receiver = new Receiver(schema, { final: false, onMessage: (message: Instance, typeName: string) => void message });
receiver.on('message', (message, typeName) => void typeName);
receiver.on('error', (error: FbeError) => void error.offset);
const delivered: number = receiver.feed(Buffer.concat(frames));
receiver.reset();
const counts: number[] = [receiver.pending, receiver.received, receiver.skipped];
receiver.attach(new PassThrough());
new PassThrough().pipe(receiver.writable());
// @ts-expect-error the schema comes first
new Sender({ package: 'proto' });
// @ts-expect-error write is a function or a stream
new Sender(schema, { write: 5 });
// @ts-expect-error feed takes bytes
receiver.feed('frames');
// @ts-expect-error send needs a message, or a type name and a value
sender.send('OrderMessage');

// ---- request/response
const exchange: Schema = fbe.load('schemas/exchange.fbe', { include: ['schemas'] });
const wire = new PassThrough();
const log: LogHook = (direction: 'send' | 'receive', text: string) => void [direction, text];
const clientOptions: ClientOptions = { package: 'exchange', final: false, write: wire, timeout: 5000, maxPending: 16,
  clock: () => process.hrtime.bigint(), timers: true, log, onNotify: (m: Instance, t: string) => void [m, t],
  limits: { maxModelSize: 1 << 20 } };
const client = new Client(exchange, clientOptions);
const overStream = new Client(exchange, { stream: new PassThrough(), timeout: 1_000_000_000n });
const requestOptions: RequestOptions = { timeout: 250, now: 0n };
const accepted: Promise<Instance> = client.request(new exchange.NewOrder({ symbol: 'EURUSD' }), requestOptions);
const typedRequest: Promise<{ order: bigint }> = client.request<{ order: bigint }>('NewOrder', { symbol: 'EURUSD' });
accepted.catch((e: unknown) => {
  if (e instanceof RejectedError) void [e.reject, e.message, e.code];
  else if (e instanceof TimeoutError || e instanceof ResetError) void e.status;
});
client.send('Trade', { order: 1n });
client.feed(Buffer.alloc(0));
const timedOut: number = client.watchdog(10n ** 9n);
client.watchdog();
const clientState: [number, bigint | null, number, number, number, number, boolean] = [client.pending,
  client.nextDeadline, client.bytes, client.pendingBytes, client.received, client.skipped, client.closed];
client.on('notify', (m, t) => void [m, t]).on('end', () => undefined).on('error', (e: FbeError) => void e);
client.setLog(null);
client.reset();
client.attach(new PassThrough());
void (async () => { for await (const note of client) void note; })();
client.close();
const asPeer: Peer = overStream;
const handler: RequestHandler = async (order: Instance) => new exchange.OrderAccepted({ order: 1n });
const serverOptions: ServerOptions = { write: (f: Buffer) => void f, handlers: { NewOrder: handler }, log };
const server = new Server(exchange, serverOptions);
server.handle(exchange.CancelOrder, (cancel: Instance, srv: Server) => { throw new exchange.Reject({ reason: 'no' }); });
server.handle('Heartbeat', () => undefined);
server.on('error', (e: unknown, request?: Instance) => void [e, request]);
server.on('message', (m, t) => void [m, t]);
server.reply(new exchange.NewOrder(), { order: 1n });
server.reply(new exchange.NewOrder(), 'Reject', { reason: 'no' });
server.send('Trade', {});
server.feed(new Uint8Array(0));
const proxyOptions: ProxyOptions = { package: 'exchange', verify: true, onFrame: (f: ProxyFrame) => void f };
const proxy = new Proxy(exchange, proxyOptions);
const handed: number = proxy.feed(Buffer.alloc(0));
proxy.on('frame', (f) => void [f.typeId, f.type, f.typeName, f.frame.length]);
void (async () => { for await (const f of proxy) void f.frame; })();
const requestTypes: [boolean, StructClass<any> | null, readonly StructClass<any>[]] = [exchange.NewOrder.isRequest,
  exchange.NewOrder.responseType, exchange.NewOrder.rejectTypes];
const senderWithLog = new Sender(schema, { log, write: (f: Buffer) => void f }).setLog(null);
const receiverWithLog = new Receiver(schema, { log }).setLog(log);
void (async () => { for await (const m of receiverWithLog) void m; })();
const t: Time = 5;
const w: FrameWriter = wire;
// @ts-expect-error a client needs where its frames go
new Client(exchange);
// @ts-expect-error timeouts are numbers (ms) or bigints (ns)
client.request('NewOrder', {}, { timeout: '5s' });
// @ts-expect-error a log hook takes a direction and a text
new Client(exchange, { write: wire, log: (n: number) => n });
// @ts-expect-error a proxy frame is read-only
proxy.on('frame', (f: ProxyFrame) => { f.typeId = 1; });

void [fromText, byPackage, root, firstImports, warnings, names, version, finalBytes, ok, same, plainBytes, id,
  orders, size, fromArrayBuffer, meta, equal, str, json, copy, isStruct, pretty, decoded, verified, modelSize,
  fromJson, byName, goodName, formatted, parsed, has, entries, enumMeta, isEnum, bigValue, frame, frame2, sent,
  senderInfo, delivered, counts, toStream, wrongSize, limited, limitedOk, limitedSize, limitedJson, limitedJson2,
  limitedReceiver, hash, fromData, order, lenient, known, typedRequest, timedOut, clientState, asPeer, handed,
  requestTypes, senderWithLog, t, w];
