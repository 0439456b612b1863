package org.libfbe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.libfbe.internal.Walk;

/**
 * A proxy of a package's protocol (docs/CLIENT.md, FORMAT.md 9.5): every frame it is fed
 * is handed over undecoded, in stream order, as a {@link Frame}: its type id, the message
 * type when the protocol knows the id (else null: such frames are handed over too, so a
 * proxy forwards a stream byte for byte) and its bytes, size field included. Frames are
 * reassembled and checked as a receiver checks them (size, size limit, root pointer);
 * with {@code verify(true)} a frame of a known type is verified too, and a bad one is the
 * core's error, as a receiver's.
 *
 * <pre>{@code
 * Proxy proxy = schema.proxy().build(frame -> frame.writeTo(upstream));
 * proxy.readFrom(downstream);
 * }</pre>
 *
 * <p>A frame consumer's exception stops the feed after that frame and comes out of
 * {@link #feed} (the bytes after it wait for the next feed). Threads and lifetime: see
 * {@link Peer}.
 */
public final class Proxy extends Peer {
  /**
   * One frame as received: {@code typeId}, {@code type} (null when the protocol does not
   * know the id) and {@code bytes} (the whole frame, its size field included; this
   * frame's own array).
   */
  public record Frame(int typeId, StructType type, byte[] bytes) {
    /** The protocol knows the type id. */
    public boolean isKnown() {
      return type != null;
    }

    /** Writes the frame's bytes to out (an IOException as UncheckedIOException). */
    public void writeTo(OutputStream out) {
      try {
        out.write(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return "Frame(typeId=" + typeId + ", type=" + (type == null ? "unknown" : type.fullName()) + ", " + bytes.length
          + " bytes)";
    }
  }

  private final Consumer<Frame> onFrame;

  private Proxy(Builder b, Consumer<Frame> onFrame) {
    super(b.schema, PROXY, b.pkg, b.model, b.limits, 0, b.verify, null, null, null);
    this.onFrame = onFrame;
  }

  /** How to make a proxy: {@link Schema#proxy()}. */
  public static final class Builder extends Peer.Builder<Builder> {
    private boolean verify;

    Builder(Schema schema) {
      super(schema);
    }




    /** Verify every frame of a known type too (default: only its size and root pointer are checked). */
    public Builder verify(boolean verify) {
      this.verify = verify;
      return this;
    }

    /** A proxy handing each frame to onFrame. */
    public Proxy build(Consumer<Frame> onFrame) {
      if (onFrame == null) throw new FbeException(Status.ARGUMENT, "no frame consumer");
      return new Proxy(this, onFrame);
    }

    /** A proxy writing each frame to out as it is (byte for byte), inside the feed. */
    public Proxy build(OutputStream out) {
      if (out == null) throw new FbeException(Status.ARGUMENT, "no output stream for the frames");
      return build(frame -> frame.writeTo(out));
    }
  }

  @Override
  void onFrame(int typeId, StructType type, byte[] frame) {
    onFrame.accept(new Frame(typeId, type, frame));
  }

  /** Drops a partial frame; from the frame consumer, the feed stops after that frame and the rest of its bytes are dropped. */
  public void reset() {
    locked(() -> call(h -> Walk.peerReset(h, this, null)));
  }
}
