package org.libfbe.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.libfbe.Message;
import org.libfbe.Model;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Encode, decode (and for libfbe decode_trusted, without the verify, and verify) and
 * decode_all (decode, then read every field once: {@link Reads}) of each workload.
 * libfbeview is libfbe-view, the bytes read in place ({@code type.view(bytes, model)}):
 * its decode opens the view (verifying) and reads one field, its decode_all opens it and
 * reads every field. Names: impl_model_op. Main runs them in interleaved rounds (or
 * with JMH, --jmh).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Benchmarks {
  @Param({"account", "small", "large"})
  public String workload;

  Workload w;

  @Setup
  public void setup() {
    w = new Workload(workload); // checks the round trips again, in this JVM
  }

  @TearDown
  public void close() {
    w.schema.close();
  }

  @Benchmark
  public byte[] libfbe_standard_encode() {
    return w.message.encode(Model.STANDARD);
  }

  @Benchmark
  public Message libfbe_standard_decode() {
    return w.type.decode(w.standard, Model.STANDARD);
  }

  @Benchmark
  public Message libfbe_standard_decode_trusted() {
    return w.type.decodeTrusted(w.standard, Model.STANDARD);
  }

  @Benchmark
  public long libfbe_standard_verify() {
    return w.type.verify(w.standard, Model.STANDARD);
  }

  @Benchmark
  public byte[] libfbe_final_encode() {
    return w.message.encode(Model.FINAL);
  }

  @Benchmark
  public Message libfbe_final_decode() {
    return w.type.decode(w.fin, Model.FINAL);
  }

  @Benchmark
  public Message libfbe_final_decode_trusted() {
    return w.type.decodeTrusted(w.fin, Model.FINAL);
  }

  @Benchmark
  public long libfbe_final_verify() {
    return w.type.verify(w.fin, Model.FINAL);
  }

  @Benchmark
  public long libfbe_standard_decode_all() {
    return Reads.message(workload, w.type.decode(w.standard, Model.STANDARD));
  }

  @Benchmark
  public long libfbe_final_decode_all() {
    return Reads.message(workload, w.type.decode(w.fin, Model.FINAL));
  }

  @Benchmark
  public long libfbeview_standard_decode() {
    return Reads.first(workload, w.type.view(w.standard, Model.STANDARD));
  }

  @Benchmark
  public long libfbeview_standard_decode_all() {
    return Reads.view(workload, w.type.view(w.standard, Model.STANDARD));
  }

  @Benchmark
  public long libfbeview_final_decode() {
    return Reads.first(workload, w.type.view(w.fin, Model.FINAL));
  }

  @Benchmark
  public long libfbeview_final_decode_all() {
    return Reads.view(workload, w.type.view(w.fin, Model.FINAL));
  }

  @Benchmark
  public byte[] protobuf_message_encode() {
    return w.proto.toByteArray();
  }

  @Benchmark
  public Object protobuf_message_decode() throws IOException {
    return w.protoParser.parseFrom(w.protoBytes);
  }

  @Benchmark
  public long protobuf_message_decode_all() throws IOException {
    return Reads.proto(workload, w.protoParser.parseFrom(w.protoBytes));
  }

  @Benchmark
  public byte[] jackson_pojo_encode() throws IOException {
    return w.mapper.writeValueAsBytes(w.pojo);
  }

  @Benchmark
  public Object jackson_pojo_decode() throws IOException {
    return w.mapper.readValue(w.json, w.pojoClass);
  }

  @Benchmark
  public long jackson_pojo_decode_all() throws IOException {
    return Reads.pojo(workload, w.mapper.readValue(w.json, w.pojoClass));
  }
}
