package org.libfbe;

import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.libfbe.internal.Walk;
import org.libfbe.internal.fbe_schema;

/**
 * A loaded schema: a root package and its imports, compiled by the core. Owns native
 * memory: close it (try-with-resources) when done; a {@link Cleaner} releases it if
 * the Schema becomes unreachable unclosed. Messages, types and senders of a closed
 * schema throw FbeException on use. Immutable: share it between threads.
 */
public final class Schema implements AutoCloseable {
  static final Cleaner CLEANER = Cleaner.create();
  /** Native schemas not yet released (by close() or the cleaner); the memory test reads it. */
  static final java.util.concurrent.atomic.AtomicLong LIVE = new java.util.concurrent.atomic.AtomicLong();

  /** The native side, released once by close() or the cleaner (never refers to the Schema). */
  private static final class Handle implements Runnable {
    fbe_schema swig;
    volatile long core;

    @Override
    public synchronized void run() {
      long c = core;
      core = 0;
      if (c != 0) Walk.unbind(c);
      if (swig != null) {
        swig.delete();
        LIVE.decrementAndGet();
      }
      swig = null;
    }
  }

  private final Handle handle = new Handle();
  /** The native calls using this schema right now (a receiver's handler runs inside one). */
  private final InFlight calls = new InFlight("schema");
  private final Cleaner.Cleanable cleanable;
  final StructType[] structs;
  final EnumType[] enums;
  private final Map<String, StructType> structByName = new HashMap<>();
  private final Map<String, EnumType> enumByName = new HashMap<>();
  private final String rootPackage;

  Schema(fbe_schema swig, SchemaBuilder.Tables tables) {
    handle.swig = swig;
    LIVE.incrementAndGet();
    handle.core = Walk.bind(fbe_schema.getCPtr(swig));
    cleanable = CLEANER.register(this, handle);
    this.structs = tables.structs;
    this.enums = tables.enums;
    this.rootPackage = tables.rootPackage;
  }

  /** Called by SchemaBuilder once the types are filled in. */
  void indexNames() {
    for (StructType s : structs) {
      structByName.put(s.fullName(), s);
      if (s.fullName().equals(rootPackage + "." + s.name())) structByName.put(s.name(), s);
    }
    for (EnumType e : enums) {
      enumByName.put(e.fullName(), e);
      if (e.fullName().equals(rootPackage + "." + e.name())) enumByName.put(e.name(), e);
    }
  }

  /**
   * The native tables, for one native call: {@code long core = schema.enter(); try {
   * ...native call... } finally { schema.exit(); }}. Between the two the schema cannot be
   * closed (close() refuses) nor cleaned (exit() keeps it reachable).
   *
   * @throws FbeException ARGUMENT when the schema is closed
   */
  long enter() {
    calls.enter();
    return handle.core;
  }

  void exit() {
    calls.exit();
    Reference.reachabilityFence(this);
  }

  /**
   * The calling thread's tape ({@link Tape#acquire}) with a native call on this schema
   * entered, its native tables in {@code t.core}: {@code Tape t = schema.begin(); try {
   * ...native call... } finally { schema.end(t); }}. On the thread's own tape the call is
   * marked on the tape (one volatile store, which close() looks at: {@link InFlight}),
   * else counted as {@link #enter} counts it.
   *
   * @throws FbeException ARGUMENT when the schema is closed
   */
  Tape begin() {
    Tape t = Tape.acquire();
    try {
      if (t.lane) {
        t.mark(this);
        if (calls.open()) {
          t.core = handle.core;
          return t;
        }
        t.unmark(); // closing or closed: the counted way waits for close()'s answer, or throws
      }
      calls.enter();
      t.core = handle.core;
      return t;
    } catch (RuntimeException | Error e) {
      t.release();
      throw e;
    }
  }

  /** Ends a call begun by {@link #begin} (its tape released). */
  void end(Tape t) {
    if (t.marked() == this) t.unmark();
    else calls.exit();
    t.release();
    Reference.reachabilityFence(this);
  }

  /** The core schema's reference taken for views (0: none yet); released by the Cleaner, never by close(). */
  private volatile long viewsSchema;

  /** Frees a Schema's extra reference to the core schema once the Schema is unreachable. */
  private static final class Release implements Runnable {
    private final long schema;

    Release(long schema) {
      this.schema = schema;
    }

    @Override
    public void run() {
      Walk.schemaRelease(schema);
    }
  }

  /**
   * Called (inside enter/exit) before a view opens: the views' cursors point into the
   * core's schema, and a view can outlive close(), so the first view takes a reference
   * to it that only the Cleaner drops, when this Schema (which every view keeps
   * reachable) is unreachable.
   */
  void keepForViews(long core) {
    if (viewsSchema != 0) return;
    synchronized (this) {
      if (viewsSchema != 0) return;
      long ref = Walk.schemaRetain(core);
      CLEANER.register(this, new Release(ref));
      viewsSchema = ref;
    }
  }

  /** The root package's name ("proto"). */
  public String packageName() {
    return rootPackage;
  }

  /**
   * A struct by "Name" (root package) or "package.Name".
   *
   * @throws FbeException NOT_FOUND when there is none
   */
  public StructType struct(String name) {
    StructType s = structByName.get(name);
    if (s == null) throw typeNotFound(name, "struct");
    return s;
  }

  /**
   * An enum or flags type by "Name" or "package.Name".
   *
   * @throws FbeException NOT_FOUND when there is none
   */
  public EnumType enumType(String name) {
    EnumType e = enumByName.get(name);
    if (e == null) throw typeNotFound(name, "enum");
    return e;
  }

  /** The core's NOT_FOUND for a name (what: "struct" or "enum"), the nearest one suggested. */
  private FbeException typeNotFound(String name, String what) {
    long core = enter();
    try {
      return Walk.typeNotFound(core, Values.utf8(String.valueOf(name)), what);
    } finally {
      exit();
    }
  }

  /** Every struct of every package, imports first. */
  public List<StructType> structs() {
    return Collections.unmodifiableList(Arrays.asList(structs));
  }

  public List<EnumType> enums() {
    return Collections.unmodifiableList(Arrays.asList(enums));
  }

  /** A sender of the root package's protocol writing frames to `sink`. */
  public Sender sender(Consumer<byte[]> sink, String pkg, Model model) {
    return new Sender(this, pkg, model, sink);
  }

  public Sender sender(OutputStream out, String pkg, Model model) {
    return new Sender(this, pkg, model, Sender.toStream(out));
  }

  public Sender sender(OutputStream out) {
    return sender(out, null, Model.STANDARD);
  }

  /** A receiver of the package's protocol (null: the root) calling `handler` per message. */
  public Receiver receiver(Consumer<Message> handler, String pkg, Model model) {
    return receiver(handler, pkg, model, Limits.DEFAULT);
  }

  public Receiver receiver(Consumer<Message> handler) {
    return receiver(handler, null, Model.STANDARD);
  }

  /**
   * A receiver whose every frame is read within the limits: max_model_size bounds a frame
   * (and so what is buffered), max_memory and max_depth its message.
   */
  public Receiver receiver(Consumer<Message> handler, String pkg, Model model, Limits limits) {
    return new Receiver(this, pkg, model, handler, limits);
  }

  public Receiver receiver(Consumer<Message> handler, Limits limits) {
    return receiver(handler, null, Model.STANDARD, limits);
  }

  /**
   * A {@link Client} of this schema's protocol (docs/CLIENT.md), to be configured (its
   * package, model, timeouts, notification listener, log hook) and built over a sink or an
   * output stream: {@code schema.client().pkg("exchange").build(socket.getOutputStream())}.
   */
  public Client.Builder client() {
    return new Client.Builder(this);
  }

  /** A {@link Server} of this schema's protocol: {@code schema.server().handle(type, handler).build(out)}. */
  public Server.Builder server() {
    return new Server.Builder(this);
  }

  /** A {@link Proxy} of this schema's protocol: {@code schema.proxy().verify(true).build(frame -> ...)}. */
  public Proxy.Builder proxy() {
    return new Proxy.Builder(this);
  }

  public boolean isClosed() {
    return calls.isClosed() || handle.core == 0;
  }

  /**
   * Releases the native schema now. Idempotent. Refused while native calls use it
   * (another thread encoding or decoding, a receiver's handler during its feed):
   * FbeException ARGUMENT "the schema is in use by N calls", and nothing is freed; close
   * it again once they have returned. Senders and receivers of the schema keep working
   * until the schema is closed; after that their calls throw "the schema is closed".
   * The views of a schema read on after close(): the first one took a reference to the
   * core's schema (its types), dropped by the Cleaner once this Schema is unreachable.
   */
  @Override
  public void close() {
    if (calls.close(this)) cleanable.clean();
  }

  @Override
  public String toString() {
    return "Schema(" + rootPackage + ", " + structs.length + " structs)";
  }
}
