// Type definitions for fbe: Fast Binary Encoding for Node.js, schemas loaded at run time.
/// <reference types="node" />
import { EventEmitter } from 'events';
import { Writable } from 'stream';

/** Bytes accepted as input: Buffer, Uint8Array, ArrayBuffer or any ArrayBufferView. */
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

export interface LoadOptions {
  /** Directories searched for `import NAME` (NAME.fbe), after the importing file's own. */
  include?: string[];
}
export interface LoadStringOptions extends LoadOptions {
  /** The name diagnostics give the text (its directory is searched for imports). */
  name?: string;
}
export interface EncodeOptions {
  /** The final (compact) model instead of the standard (versioned) one. */
  final?: boolean;
}
/** Resource limits against hostile input (every member optional; 0 or absent: the core's
 * default). The core checks each (name, range) when the call is made: an unknown name or
 * a value out of range throws its FbeError (FBE_ERR_ARGUMENT / FBE_ERR_RANGE); a
 * non-integer, FBE_ERR_TYPE. Crossing one throws FBE_ERR_LIMIT naming it. */
export interface Limits {
  /** Nesting through optionals and collections: 1..256 (default 256). */
  maxDepth?: number | bigint;
  /** Largest model (frame, JSON text) in bytes: 1..2^32-1 (default 1 GiB). */
  maxModelSize?: number | bigint;
  /** Bytes one decode, verify or JSON read may cost (8 per value plus what the core
   * allocates); default 16 x the input + 1 MiB. */
  maxMemory?: number | bigint;
}
export interface LimitOptions {
  limits?: Limits;
}
/** Options of verify and validate. */
export interface VerifyOptions extends EncodeOptions, LimitOptions {}
/** Options of fromJsonString. */
export interface FromJsonOptions extends LimitOptions {
  /** Skip members the struct does not have (JSON of a newer schema); default false: they
   * are an UnknownFieldError. */
  ignoreUnknown?: boolean;
}
export interface DecodeOptions extends EncodeOptions, LimitOptions {
  /** Decode without verifying, for bytes you trust or verified already (default false:
   * the core verifies first and bytes verify rejects throw verify's FbeError). */
  trusted?: boolean;
  /** @deprecated `verify: false` is the older spelling of `trusted: true`. */
  verify?: boolean;
}
export interface JsonOptions {
  /** Indent by two spaces. */
  pretty?: boolean;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Every type form of the schema language. */
export type Kind =
  | 'bool' | 'byte' | 'char' | 'wchar' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32'
  | 'uint32' | 'int64' | 'uint64' | 'float' | 'double' | 'decimal' | 'timestamp' | 'uuid'
  | 'string' | 'bytes' | 'enum' | 'flags' | 'struct' | 'optional' | 'array' | 'vector'
  | 'list' | 'set' | 'map' | 'hash';

/** A field's type: struct/enum by full name, element (and key) types of containers. */
export interface TypeInfo {
  readonly kind: Kind;
  readonly struct?: string;
  readonly enum?: string;
  readonly size?: number;
  readonly key?: TypeInfo;
  readonly elem?: TypeInfo;
}
export interface FieldInfo {
  readonly name: string;
  readonly key: boolean;
  readonly type: TypeInfo;
}
export interface PackageInfo {
  readonly name: string;
  readonly domain?: string;
  readonly version: string;
  readonly imports: readonly string[];
}

/** The status names of the core's error table (fbe/error.h). */
export type StatusName =
  | 'FBE_OK' | 'FBE_ERR_NOMEM' | 'FBE_ERR_ARGUMENT' | 'FBE_ERR_SCHEMA' | 'FBE_ERR_NOT_FOUND'
  | 'FBE_ERR_TYPE' | 'FBE_ERR_RANGE' | 'FBE_ERR_MALFORMED' | 'FBE_ERR_JSON' | 'FBE_ERR_LIMIT'
  | 'FBE_ERR_IO' | 'FBE_ERR_UNKNOWN_FIELD' | 'FBE_ERR_REJECTED' | 'FBE_ERR_TIMEOUT' | 'FBE_ERR_RESET';

/** Every failure: bad schemas, values the input table refuses (docs/INPUT.md: wrong
 * JavaScript types, numbers out of range, bad text, unknown field names), malformed
 * bytes, bad JSON, protocol errors. Each is an instance of its status's class below
 * (generated from the core's status table); the message is the core's text,
 * "reason at 'path' (offset N)". */
export declare class FbeError extends Error {
  constructor(reason: string, info?: { status?: number; path?: string; offset?: number | null });
  /** The core's status code (codes[this.code]). */
  readonly status: number;
  readonly code: StatusName | 'FBE_ERR_UNKNOWN';
  /** Where in the value: "orders[2].symbol"; "" for the value itself. */
  path: string;
  /** Byte offset in the input (bytes, JSON text or stream), or null. */
  offset: number | null;
  /** The message without path and offset. */
  readonly reason: string;
  /** Every error of a schema that does not load ("file:line:col: message"). */
  readonly diagnostics?: string[];
}

/** The class of each status (FBE_STATUS_LIST in fbe/error.h: class name and parent). */
export declare class OutOfMemoryError extends FbeError {}
export declare class ArgumentError extends FbeError {}
export declare class SchemaError extends FbeError {}
export declare class NotFoundError extends FbeError {}
export declare class TypeMismatchError extends FbeError {}
export declare class RangeError extends FbeError {}
export declare class MalformedError extends FbeError {}
export declare class JSONError extends FbeError {}
export declare class LimitError extends FbeError {}
export declare class StreamError extends FbeError {}
export declare class UnknownFieldError extends NotFoundError {}
/** A request refused by its server: the message is the reject's text form
 * ("Reject(id=...,reason=\"...\")"), `reject` the reject itself. */
export declare class RejectedError extends FbeError {
  reject?: Instance;
}
/** A request past its timeout: "Timeout!". */
export declare class TimeoutError extends FbeError {}
/** A request ended by the client's reset() or close() (or its stream's end): "Reset client!". */
export declare class ResetError extends FbeError {}

/** Status codes by name. */
export declare const codes: Readonly<Record<StatusName, number>>;

/** The base class of every struct class a schema makes. A field named like one of these
 * methods hides it on the value (fields are own properties, README "Names"): the
 * Schema's calls, or the method through the class (T.prototype.equals.call(v, w)),
 * are never hidden. */
export declare abstract class Struct {
  /** The value in the standard model (or the final one); a new Buffer. */
  encode(options?: EncodeOptions): Buffer;
  /** The value as JSON text, with the reference's conventions. */
  toJsonString(options?: JsonOptions): string;
  /** Deep equality by the core: every field (floats by bit pattern, decimals by value);
   * false for anything but a value of the schema's structs. */
  equals(other: unknown): boolean;
  /** The hash of the [key] fields (equal values, equal hashes); 0n without [key] fields. */
  hashKey(): bigint;
  /** The core's text form: Account(id=1,name="Test",...); a value that cannot be
   * converted shows Account(<invalid: the error>). util.inspect shows the same. */
  toString(): string;
  /** A JSON-safe plain object (64-bit integers as strings, bytes as Base64). */
  toJSON(): { [field: string]: JsonValue };
  /** Plain data: nested structs as plain objects, arrays and sets as Arrays, maps as Maps,
   * 64-bit integers and timestamps as bigints (Cls.fromObject reads it back). */
  toObject(): { [field: string]: any };
  /** A deep copy (as the core reads the value: checked, sets without duplicates). */
  clone(): this;
}

/** What `T.view(bytes)` takes: the model and the limits of the verify. */
export interface ViewOptions extends LimitOptions {
  /** 'standard' (the default) or 'final'; `final: true` is read as decode reads it. */
  model?: 'standard' | 'final';
  final?: boolean;
}

/** The base class of every struct's view (`T.view(bytes)`): its fields are getters that
 * read the bytes on access. A field named like one of these methods hides it on the view;
 * View.prototype.toValue.call(v) and the like never are. */
export declare abstract class View<T extends object = Record<string, any>> {
  /** The value decode gives for the bytes. */
  toValue(): Instance<T>;
  /** Deep equality by the core against another view or a value of the schema's structs. */
  equals(other: unknown): boolean;
  /** The core's JSON, as toJsonString of the decoded value. */
  toJson(options?: JsonOptions): string;
  /** The core's text form, as String() of the decoded value (util.inspect shows it too). */
  toString(): string;
}

/** A view of an array, vector, list or set: elements read on access, as written. */
export declare abstract class ListView<E = any, V = any> implements Iterable<E> {
  readonly length: number;
  /** Element i (negative: from the end), undefined outside. */
  at(i: number): E | undefined;
  [Symbol.iterator](): IterableIterator<E>;
  toArray(): E[];
  /** What decode gives for the field: an Array, a Set (one element each), or an array. */
  toValue(): V;
  equals(other: unknown): boolean;
  toJson(options?: JsonOptions): string;
  toString(): string;
}

/** A view of a map or hash: entries read on access, in the order written. */
export declare abstract class MapView<K = any, E = any, V = any> implements Iterable<[K, E]> {
  readonly size: number;
  keyAt(i: number): K | undefined;
  valueAt(i: number): E | undefined;
  entries(): IterableIterator<[K, E]>;
  keys(): IterableIterator<K>;
  values(): IterableIterator<E>;
  [Symbol.iterator](): IterableIterator<[K, E]>;
  /** What decode gives for the field: a Map (one entry per key), or an array of pairs. */
  toValue(): V;
  equals(other: unknown): boolean;
  toJson(options?: JsonOptions): string;
  toString(): string;
}

/** How a field of type F reads on a view: structs as views, collections as ListView /
 * MapView, the rest as decode gives it. */
export type ViewField<F> =
  F extends Buffer | Uint8Array | string | number | bigint | boolean | null | undefined ? F
  : F extends Map<infer K, infer E> ? MapView<ViewField<K>, ViewField<E>, F>
  : F extends Set<infer E> ? ListView<ViewField<E>, F>
  : F extends ReadonlyArray<infer E> ? ListView<ViewField<E>, F>
  : F extends object ? StructView<F>
  : F;

/** A view of a struct with fields T: a read-only getter per field, and the View methods. */
export type StructView<T extends object = Record<string, any>> = { readonly [K in keyof T]: ViewField<T[K]> } & View<T>;

/** An instance of a struct class: its fields and the Struct methods. */
export type Instance<T extends object = Record<string, any>> = T & Struct;

/** A struct class (made when first asked for). T describes the fields when you know them
 * (schema.struct<T>(name)); without it fields are `any`. */
export interface StructClass<T extends object = Record<string, any>> {
  /** A new value: the given fields, the schema's defaults for the others. A name the
   * struct does not have throws UnknownFieldError at once; the values are checked when
   * encoded. */
  new (init?: Partial<T>): Instance<T>;
  /** A new value from plain data (what toObject gives), every value checked now. */
  fromObject(data: object): Instance<T>;
  /** -1, 0 or 1 by the [key] fields (for sort); TypeMismatchError for a struct without
   * [key] fields. */
  compare(a: object, b: object): -1 | 0 | 1;
  readonly prototype: Instance<T>;
  /** Decodes bytes of this type, verified first unless options.trusted (bytes verify
   * rejects throw verify's FbeError: its reason, offset and path). */
  decode(bytes: Bytes, options?: DecodeOptions): Instance<T>;
  /** A view of the bytes: fields read in place on access, verified first as decode
   * verifies (the same errors). */
  view(bytes: Bytes, options?: ViewOptions): StructView<T>;
  /** true when the bytes start with a valid model of this type. */
  verify(bytes: Bytes, options?: VerifyOptions): boolean;
  /** The model size of valid bytes; throws FbeError (offset, path) otherwise. */
  validate(bytes: Bytes, options?: VerifyOptions): number;
  fromJsonString(text: string, options?: FromJsonOptions): Instance<T>;
  readonly typeName: string;
  readonly fullName: string;
  readonly packageName: string;
  readonly typeId: number;
  readonly isMessage: boolean;
  /** Marked [request] in the schema. */
  readonly isRequest: boolean;
  /** A request's [response(...)] type, or null. */
  readonly responseType: StructClass<any> | null;
  /** A request's [reject(...)] types. */
  readonly rejectTypes: readonly StructClass<any>[];
  readonly fields: readonly FieldInfo[];
}

/** The prototype of every enum/flags object. Members are own enumerable properties
 * (numbers, or bigints on a 64-bit base), E[name] whatever the name; a member named
 * like one of these hides it on that object, Enum.prototype.format.call(E, v) never. */
export declare class Enum<V extends number | bigint = number | bigint> {
  protected constructor();
  readonly name: string;
  readonly fullName: string;
  readonly isFlags: boolean;
  /** The member name of a value, or undefined. */
  nameOf(value: V): string | undefined;
  /** The core's text: the member's name (the number when none has it); flags: the names
   * of every member whose bits are set joined by '|', then any bits left as a number. */
  format(value: V): string;
  /** The value of a name; for flags names or numbers joined by '|' ('good|64').
   * ArgumentError for a name the type does not have. */
  parse(text: string): V;
  /** Flags: whether every bit of flag is set in value. */
  has(value: V, flag: V): boolean;
  entries(): Array<[string, V]>;
}

/** An enum/flags object with its members M (schema.enum<M>(name)). */
export type EnumObject<M extends string = string, V extends number | bigint = number> =
  Enum<V> & { readonly [K in M]: V };

export declare class Schema {
  private constructor();
  /** The root package's name. */
  readonly root: string;
  /** Every package, imports first. */
  readonly packages: readonly PackageInfo[];
  /** Warnings the schema loaded with. */
  readonly warnings: readonly string[];
  /** A struct class or enum object by "Name" or "package.Name"; NotFoundError when the
   * schema has none. */
  get(name: string): StructClass | Enum;
  /** Whether get(name) finds a type. */
  has(name: string): boolean;
  /** Every name get() knows. */
  names(): string[];
  /** A struct class by name (throws FbeError when there is none). */
  struct<T extends object = Record<string, any>>(name: string): StructClass<T>;
  /** An enum/flags object by name (throws FbeError when there is none). */
  enum<M extends string = string, V extends number | bigint = number>(name: string): EnumObject<M, V>;
  /** Encodes a value (instance or plain object) of a struct type. */
  encode(type: string | StructClass<any>, value: object, options?: EncodeOptions): Buffer;
  decode(type: string | StructClass<any>, bytes: Bytes, options?: DecodeOptions): Instance;
  view(type: string | StructClass<any>, bytes: Bytes, options?: ViewOptions): StructView;
  verify(type: string | StructClass<any>, bytes: Bytes, options?: VerifyOptions): boolean;
  validate(type: string | StructClass<any>, bytes: Bytes, options?: VerifyOptions): number;
  toJsonString(type: string | StructClass<any>, value: object, options?: JsonOptions): string;
  fromJsonString(type: string | StructClass<any>, text: string, options?: FromJsonOptions): Instance;
  /** The struct classes and enum objects, by name (also destructurable): "pkg.Name"
   * always, "Name" unless it is a member of Schema or of every object, or `then`
   * (README "Names": such a type is get(name)). The calls above are never hidden. */
  readonly [name: string]: any;
}

/** Loads a .fbe file and its imports. */
export declare function load(path: string, options?: LoadOptions): Schema;
/** Loads a schema from text. */
export declare function loadString(text: string, options?: LoadStringOptions): Schema;
/** Loads package NAME from NAME.fbe on the include directories. */
export declare function loadPackage(name: string, options?: LoadOptions): Schema;

/** Where frames go: a callback, or a stream (anything with write(Buffer)). */
export type FrameWriter = ((frame: Buffer) => void) | { write(frame: Buffer): unknown };

/** A log hook: the direction ('send' or 'receive') and the message's text form (the
 * core's, docs/TEXT.md: "NewOrder(id=\"...\",symbol=\"EURUSD\",...)"). */
export type LogHook = (direction: 'send' | 'receive', text: string) => void;

export interface SenderOptions {
  /** The protocol's package (default: the schema's root package). */
  package?: string;
  final?: boolean;
  /** Where frames go: a callback, or a stream (anything with write(Buffer)). */
  write?: FrameWriter;
  /** Called with 'send' and each message's text form before its frame leaves. */
  log?: LogHook | null;
}

/** Writes messages as protocol frames. */
export declare class Sender {
  constructor(schema: Schema, options?: SenderOptions);
  readonly schema: Schema;
  readonly package: string;
  readonly final: boolean;
  /** Sends a message (an instance of a message type of the protocol); returns its frame. */
  send(message: Struct): Buffer;
  /** Sends a value of a message type given by name; returns its frame. */
  send(type: string | StructClass<any>, value: object): Buffer;
  /** Bytes written so far. */
  readonly bytes: number;
  /** The log hook (null: off). */
  setLog(log: LogHook | null): this;
}

export type MessageHandler = (message: Instance, typeName: string) => void;

export interface ReceiverOptions extends LimitOptions {
  package?: string;
  final?: boolean;
  /** Called with each message and its type's full name ("proto.OrderMessage"). */
  onMessage?: MessageHandler;
  /** Called with 'receive' and each message's text form before it is delivered. */
  log?: LogHook | null;
}

/** Reads protocol frames fed in chunks of any size; emits 'message' for each message. */
export declare class Receiver extends EventEmitter {
  constructor(schema: Schema, options?: ReceiverOptions);
  readonly schema: Schema;
  readonly package: string;
  readonly final: boolean;
  /** Takes the next bytes; returns the number of messages delivered. Throws FbeError
   * (with the stream offset) on a corrupt frame. */
  feed(chunk: Bytes): number;
  /** Drops a partial frame. */
  reset(): void;
  readonly pending: number;
  readonly received: number;
  readonly skipped: number;
  /** Feeds every 'data' chunk of a readable stream; errors are emitted as 'error', 'end'
   * when the stream ends or closes. */
  attach(readable: NodeJS.ReadableStream): this;
  /** A Writable that feeds this receiver. */
  writable(): Writable;
  /** The log hook (null: off). */
  setLog(log: LogHook | null): this;
  /** The messages delivered from now on, until an attached stream ends. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Instance>;
  on(event: 'message', listener: MessageHandler): this;
  on(event: 'error', listener: (error: FbeError) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
}

// ---- request/response (README "Requests and responses", docs/CLIENT.md)

/** A time: a number of milliseconds (fractions kept to the nanosecond) or a bigint of
 * nanoseconds. */
export type Time = number | bigint;

/** What every request/response peer takes. */
export interface PeerOptions extends LimitOptions {
  /** The protocol's package (default: the schema's root package); its imports' messages
   * are its too. */
  package?: string;
  final?: boolean;
  /** The log hook (every message sent and received, as its text form). */
  log?: LogHook | null;
}

/** What Client, Server and Proxy share. */
export declare abstract class Peer extends EventEmitter {
  readonly schema: Schema;
  readonly package: string;
  readonly final: boolean;
  /** Whether close() was called. */
  readonly closed: boolean;
  /** Takes the next received bytes, in chunks of any size; a frame that cannot be valid
   * throws the core's FbeError (its stream offset). */
  feed(chunk: Bytes): unknown;
  /** Feeds every 'data' chunk of a readable stream (a net.Socket...); feed errors are
   * emitted as 'error'; 'end' when it ends or closes (a client resets first). */
  attach(readable: NodeJS.ReadableStream): this;
  /** A Writable that feeds this peer. */
  writable(): Writable;
  /** Drops a partial frame (a client also ends its pending requests: ResetError). */
  reset(): void;
  /** Ends the peer (a client's pending requests: ResetError), lets an attached stream go,
   * frees the native state; 'close' is emitted; later calls throw. */
  close(): void;
  /** The log hook (null: off). */
  setLog(log: LogHook | null): this;
  /** Bytes of an incomplete frame held for the next feed. */
  readonly pendingBytes: number;
  /** Messages received (a proxy: frames of known types). */
  readonly received: number;
  /** Frames of types the protocol does not know. */
  readonly skipped: number;
}

export interface ClientOptions extends PeerOptions {
  /** Where the client's frames go (a function or a writable stream). */
  write?: FrameWriter;
  /** A duplex stream (a net.Socket): written to, and attached (fed, and the client reset
   * when it ends). One of write and stream is required. */
  stream?: NodeJS.ReadableStream & NodeJS.WritableStream;
  /** The default timeout of requests (0: none). */
  timeout?: Time;
  /** Pending requests allowed at once (0: the core's default, 65536). */
  maxPending?: number;
  /** The time, in nanoseconds of a clock that does not go back (default:
   * process.hrtime.bigint). */
  clock?: () => Time;
  /** false: no timer; timeouts are checked when you call watchdog(now). Default true: one
   * unref'd timer at the earliest deadline. */
  timers?: boolean;
  /** Called with each notification (as the 'notify' event). */
  onNotify?: MessageHandler;
}

export interface RequestOptions {
  /** This request's timeout (0: none; default: the client's). */
  timeout?: Time;
  /** The time the request is made (default: the clock's). */
  now?: Time;
}

/** A client (docs/CLIENT.md): requests answered by responses, rejects (RejectedError),
 * timeouts (TimeoutError) and resets (ResetError), matched by the core; every other
 * message received is a notification ('notify' and 'message' events, async iteration). */
export declare class Client extends Peer {
  constructor(schema: Schema, options: ClientOptions);
  /** Sends a request; its response (undefined for a request type with no [response]).
   * A request the core refuses (not a request type, a pending request with an equal id,
   * past maxPending, its bytes not taken) is a rejected promise, and nothing is sent. */
  request<R = Instance>(message: Struct, options?: RequestOptions): Promise<R>;
  request<R = Instance>(type: string | StructClass<any>, value: object, options?: RequestOptions): Promise<R>;
  /** Sends any message of the protocol as it is (no request is made). */
  send(message: Struct): void;
  send(type: string | StructClass<any>, value: object): void;
  feed(chunk: Bytes): void;
  /** Ends every request past its timeout at `now` (default: the clock's time) with
   * TimeoutError, oldest first; how many. */
  watchdog(now?: Time): number;
  /** Requests waiting for their response. */
  readonly pending: number;
  /** When the watchdog next ends a request (nanoseconds of the clock), or null. */
  readonly nextDeadline: bigint | null;
  /** Bytes sent so far. */
  readonly bytes: number;
  /** The notifications received from now on, until the attached stream ends or the
   * client closes. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Instance>;
  on(event: 'notify' | 'message', listener: MessageHandler): this;
  on(event: 'error', listener: (error: FbeError) => void): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
}

/** A request handler: the answer (a message of the response type or of a reject type; a
 * plain object: the response), a promise of it, or undefined to send nothing. Throwing a
 * message of a reject type (or a RejectedError) sends that reject. */
export type RequestHandler<Q = Instance> = (request: Q, server: Server) => unknown;

export interface ServerOptions extends PeerOptions {
  /** Where the server's frames go (a function or a writable stream). */
  write?: FrameWriter;
  /** A duplex stream: written to and attached. One of write and stream is required. */
  stream?: NodeJS.ReadableStream & NodeJS.WritableStream;
  /** Handlers by request type name (or a Map of types to handlers). */
  handlers?: Record<string, RequestHandler> | Map<string | StructClass<any>, RequestHandler>;
}

/** A server: each request goes to its type's handler, whose answer is sent with the
 * request's id (set by the core); messages without a handler are 'message' events (and
 * async iteration). A handler's failure, or an answer the core refuses, is 'error'. */
export declare class Server extends Peer {
  constructor(schema: Schema, options: ServerOptions);
  /** The handler of requests of `type` (TypeMismatchError for a type not marked [request]). */
  handle<Q = Instance>(type: string | StructClass<any>, handler: RequestHandler<Q>): this;
  /** Answers a request this server received (the reply's id set by the core);
   * TypeMismatchError when the type is not the request's response or one of its
   * rejects, and nothing is sent. */
  reply(request: Struct, answer: Struct | object): void;
  reply(request: Struct, type: string | StructClass<any>, value: object): void;
  /** Sends any message of the protocol (a notification). */
  send(message: Struct): void;
  send(type: string | StructClass<any>, value: object): void;
  feed(chunk: Bytes): void;
  /** The messages no handler took, from now on. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Instance>;
  on(event: 'message', listener: MessageHandler): this;
  on(event: 'error', listener: (error: unknown, request?: Instance) => void): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
}

/** A frame a proxy hands over, undecoded. */
export interface ProxyFrame {
  /** The frame's type id. */
  readonly typeId: number;
  /** The message type, or null when the protocol does not know the id. */
  readonly type: StructClass<any> | null;
  /** Its full name, or null. */
  readonly typeName: string | null;
  /** The frame's bytes as received, size field included. */
  readonly frame: Buffer;
}

export interface ProxyOptions extends LimitOptions {
  package?: string;
  final?: boolean;
  /** Verify every frame of a known type too (default false: sizes and the root pointer
   * are checked, as a receiver checks them). */
  verify?: boolean;
  /** Called with each frame (as the 'frame' event). */
  onFrame?: (frame: ProxyFrame) => void;
  /** A readable stream to attach. */
  stream?: NodeJS.ReadableStream;
}

/** A proxy: every frame handed over undecoded (known types and others), so a stream can
 * be forwarded byte for byte, filtered or logged. */
export declare class Proxy extends Peer {
  constructor(schema: Schema, options?: ProxyOptions);
  readonly verify: boolean;
  /** Takes the next bytes; how many frames it handed over. */
  feed(chunk: Bytes): number;
  /** The frames from now on, until the attached stream ends. */
  [Symbol.asyncIterator](): AsyncIterableIterator<ProxyFrame>;
  on(event: 'frame', listener: (frame: ProxyFrame) => void): this;
  on(event: 'error', listener: (error: FbeError) => void): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
}

/** The libfbe core's version ("0.1.0"). */
export declare const version: string;
