package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** One test per record of the public conformance files (vectors, malformed, versioning). */
class ConformanceTest {
  private static final Conformance RUNNER = new Conformance(List.of(Fixtures.schemas()));

  @AfterAll
  static void noneSkipped() {
    assertTrue(RUNNER.passed > 0);
    assertTrue(RUNNER.skipped == 0, RUNNER.skipped + " records skipped");
  }

  private static Stream<DynamicTest> records(String file) throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    List<Object> recs = Conformance.records(Fixtures.conformance(file));
    assertFalse(recs.isEmpty(), file + " is empty");
    for (Object o : recs) {
      @SuppressWarnings("unchecked")
      Map<String, Object> rec = (Map<String, Object>) o;
      String id = String.valueOf(rec.get("id"));
      tests.add(DynamicTest.dynamicTest(id, () -> assertNull(RUNNER.runRecord(rec), id)));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> vectors() throws IOException {
    return records("vectors.jsonl");
  }

  @TestFactory
  Stream<DynamicTest> malformed() throws IOException {
    return records("malformed.jsonl");
  }

  @TestFactory
  Stream<DynamicTest> versioning() throws IOException {
    return records("versioning.jsonl");
  }
}
