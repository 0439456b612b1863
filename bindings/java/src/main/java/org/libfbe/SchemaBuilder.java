package org.libfbe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.libfbe.internal.FbeCore;
import org.libfbe.internal.SWIGTYPE_p_fbe_enum;
import org.libfbe.internal.SWIGTYPE_p_fbe_field;
import org.libfbe.internal.SWIGTYPE_p_fbe_package;
import org.libfbe.internal.SWIGTYPE_p_fbe_struct;
import org.libfbe.internal.SWIGTYPE_p_fbe_type;
import org.libfbe.internal.fbe_schema;

/**
 * Builds the Java view of a loaded schema through the SWIG introspection surface
 * (swig/fbe.i), once per load: StructType/EnumType/Field/FieldType objects, in the
 * order the native tables index them (packages in dependency order, declaration order
 * inside each).
 */
final class SchemaBuilder {
  static final class Tables {
    StructType[] structs;
    EnumType[] enums;
    String rootPackage;
  }

  private final Map<Long, StructType> structOf = new HashMap<>();
  private final Map<Long, EnumType> enumOf = new HashMap<>();
  private Schema schema;

  private SchemaBuilder() {}

  static Schema build(fbe_schema swig) {
    SchemaBuilder b = new SchemaBuilder();
    Tables t = new Tables();
    // The Schema is made first (the types point at it), then filled.
    List<SWIGTYPE_p_fbe_struct> structPtrs = new ArrayList<>();
    List<SWIGTYPE_p_fbe_enum> enumPtrs = new ArrayList<>();
    long npkg = FbeCore.fbe_schema_package_count(swig);
    for (long p = 0; p < npkg; p++) {
      SWIGTYPE_p_fbe_package pkg = FbeCore.fbe_schema_package_at(swig, p);
      for (long i = 0, n = FbeCore.fbe_package_struct_count(pkg); i < n; i++)
        structPtrs.add(FbeCore.fbe_package_struct_at(pkg, i));
      for (long i = 0, n = FbeCore.fbe_package_enum_count(pkg); i < n; i++)
        enumPtrs.add(FbeCore.fbe_package_enum_at(pkg, i));
    }
    t.rootPackage = FbeCore.fbe_package_name(FbeCore.fbe_schema_root(swig));
    t.structs = new StructType[structPtrs.size()];
    t.enums = new EnumType[enumPtrs.size()];
    for (int i = 0; i < t.enums.length; i++) {
      SWIGTYPE_p_fbe_enum e = enumPtrs.get(i);
      EnumType et = new EnumType((int) FbeCore.fbe_enum_index(e), FbeCore.fbe_enum_name(e), FbeCore.fbe_enum_full_name(e),
          FbeCore.fbe_enum_is_flags(e) != 0, Kind.of(FbeCore.fbe_enum_base(e).swigValue()));
      for (long k = 0, n = FbeCore.fbe_enum_value_count(e); k < n; k++)
        et.addValue(FbeCore.fbe_enum_value_name(e, k), FbeCore.fbe_enum_value_at(e, k).longValue());
      et.seal();
      t.enums[i] = et;
      b.enumOf.put(SWIGTYPE_p_fbe_enum.getCPtr(e), et);
    }
    Schema schema = new Schema(swig, t);
    b.schema = schema;
    for (EnumType et : t.enums) et.schema = schema;
    for (int i = 0; i < t.structs.length; i++) {
      SWIGTYPE_p_fbe_struct s = structPtrs.get(i);
      StructType st = new StructType(schema, i, FbeCore.fbe_struct_name(s), FbeCore.fbe_struct_full_name(s),
          (int) FbeCore.fbe_struct_type_id(s), FbeCore.fbe_struct_is_message(s) != 0,
          FbeCore.fbe_struct_has_keys(s) != 0);
      t.structs[i] = st;
      b.structOf.put(SWIGTYPE_p_fbe_struct.getCPtr(s), st);
    }
    for (int i = 0; i < t.structs.length; i++) {
      SWIGTYPE_p_fbe_struct s = structPtrs.get(i);
      SWIGTYPE_p_fbe_struct base = FbeCore.fbe_struct_base(s);
      if (base != null) t.structs[i].base = b.structOf.get(SWIGTYPE_p_fbe_struct.getCPtr(base));
      List<Field> fields = new ArrayList<>();
      for (long k = 0, n = FbeCore.fbe_struct_field_count(s); k < n; k++) {
        SWIGTYPE_p_fbe_field f = FbeCore.fbe_struct_field_at(s, k);
        fields.add(new Field(FbeCore.fbe_field_name(f), (int) k, b.type(FbeCore.fbe_field_type(f)),
            FbeCore.fbe_field_is_key(f) != 0));
      }
      t.structs[i].setFields(fields);
    }
    long core = schema.enter(); // the request annotations (SCHEMA.md 6.6), from the core's tables
    try {
      for (int i = 0; i < t.structs.length; i++) {
        int[] info = org.libfbe.internal.Walk.requestInfo(core, i);
        List<StructType> rejects = new ArrayList<>();
        for (int k = 2; k < info.length; k++) rejects.add(t.structs[info[k]]);
        t.structs[i].setRequest(info[0] != 0, info[1] >= 0 ? t.structs[info[1]] : null, rejects);
      }
    } finally {
      schema.exit();
    }
    schema.indexNames();
    return schema;
  }

  private FieldType type(SWIGTYPE_p_fbe_type t) {
    if (t == null) return null;
    Kind kind = Kind.of(FbeCore.fbe_type_kind(t).swigValue());
    FieldType element = null, key = null;
    StructType st = null;
    EnumType en = null;
    int size = 0;
    switch (kind) {
      case STRUCT:
        st = structOf.get(SWIGTYPE_p_fbe_struct.getCPtr(FbeCore.fbe_type_struct(t)));
        break;
      case ENUM: case FLAGS:
        en = enumOf.get(SWIGTYPE_p_fbe_enum.getCPtr(FbeCore.fbe_type_enum(t)));
        break;
      case MAP: case HASH:
        key = type(FbeCore.fbe_type_key(t));
        element = type(FbeCore.fbe_type_element(t));
        break;
      case ARRAY:
        size = (int) FbeCore.fbe_type_array_size(t);
        element = type(FbeCore.fbe_type_element(t));
        break;
      case OPTIONAL: case VECTOR: case LIST: case SET:
        element = type(FbeCore.fbe_type_element(t));
        break;
      default:
        break;
    }
    return new FieldType(schema, SWIGTYPE_p_fbe_type.getCPtr(t), kind, element, key, st, en, size);
  }
}
