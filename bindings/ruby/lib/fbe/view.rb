# frozen_string_literal: true

module FBE
  # What every view does as a value: the decoded value on demand, the core's equality,
  # text form and JSON (exactly the decoded value's: fbe_view_* of the C core).
  module Viewed
    # The value decode gives for the bytes (ordered: as decode's).
    def to_value(ordered: false)
      Native.view_to_value(self, ordered)
    end

    # The core's deep equality (floats by bit pattern, decimals by value, collections in
    # order) with another view or a value: for a struct view an instance of its struct
    # class, for a collection view what encode takes for the collection.
    def ==(other)
      Native.view_equal(self, other)
    end

    # The text form (docs/TEXT.md), the decoded value's.
    def inspect
      Native.view_text(self)
    end
    alias to_s inspect

    def pretty_print(printer)
      printer.text(Native.view_text(self))
    end

    # The decoded value's JSON. (Takes and ignores the generator state the json library
    # passes, so JSON.generate embeds the same text.)
    def to_json(*_state, pretty: false)
      Native.view_to_json(self, pretty)
    end
  end

  # A struct's value read in place from its verified bytes: Account.view(data). Every
  # struct class has its View class (Account::View, made at load) with a reader per field,
  # which reads the field from the bytes each time it is called; view[:name] reaches every
  # field whatever its name. Values come as decode gives them, but for structs and
  # collections, which are views too (View, ListView, MapView). Read-only.
  class View
    include Viewed

    class << self
      # The struct class whose values this class views (Account for Account::View).
      attr_reader :value_class

      def inspect
        @value_class ? "#<FBE view of #{@value_class.fbe_name}>" : super
      end
    end

    # Plain data, deep (the decoded value's to_h).
    def to_h(&block)
      to_value.to_h(&block)
    end
  end

  # An array, vector, list or set field read in place: size, [i], each (Enumerable), to_a;
  # the elements read on access (a set's as written: to_value keeps one per value), or,
  # for to_a and each of plain values (numbers, strings, ...), decoded in one pass.
  class ListView
    include Viewed
    include Enumerable
  end

  # A map or hash field read in place: size, each / each_pair ([key, value], wire
  # order), keys, values, [key] and key? (a linear search; the last entry with the key,
  # as decode keeps it), to_a (the pairs) and Enumerable.
  class MapView
    include Viewed
    include Enumerable
  end
end
