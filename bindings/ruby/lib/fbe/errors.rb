# frozen_string_literal: true

# The exception classes: FBE::Error and one subclass per status code of the core
# (FBE_STATUS_LIST in fbe/error.h), generated from the core's own table.
module FBE
  # Base of every libfbe error. #message is the core's one error text (fbe_error_format:
  # "reason at 'path' (offset N)", the path and the offset when set); #reason is the text
  # alone; #path is where in the value ("orders[2].symbol", "" for the root); #offset the
  # byte offset in the input (nil when none applies); #code the core's status code and
  # #status its name.
  class Error < StandardError
    attr_reader :reason, :code, :status, :path, :offset
    # Receiver#feed: the messages delivered before the bad frame (when it has no handler).
    attr_reader :received

    def initialize(reason = "libfbe error", code = 0, path = "", offset = nil)
      @reason = reason.to_s
      @code = code
      @status = Core.fbe_status_name(code)
      @path = path.to_s
      @offset = offset
      super(Native.error_text(@reason, @path, @offset))
    end
  end

  # One class per status, named and parented by the core's table (fbe_status_class,
  # fbe_status_parent: FBE_OK is Error itself), parents first.
  classes = [Error]
  (1...Core::FBE_STATUS_COUNT).each do |code|
    cls = Class.new(classes[Core.fbe_status_parent(code)])
    const_set(Core.fbe_status_class(code), cls)
    classes << cls
  end

  # A schema that does not load; #diagnostics lists every error and warning as
  # "file:line:col: message".
  class SchemaError
    attr_reader :diagnostics

    def initialize(reason = "schema error", code = Core::FBE_ERR_SCHEMA, path = "", offset = nil, diagnostics = [])
      super(reason, code, path, offset)
      @diagnostics = diagnostics
    end
  end

  # A request refused by the server with a reject message (docs/CLIENT.md): the client's
  # future fails with it, #reject being the reject and #message its text form. A
  # server's handler raises one to answer with a reject: raise FBE::RejectedError, reject.
  class RejectedError
    attr_reader :reject

    def initialize(reason = "request rejected", code = Core::FBE_ERR_REJECTED, path = "", offset = nil)
      if Message === reason
        @reject = reason
        reason = reason.to_s
      end
      super(reason, code, path, offset)
    end
  end

  Native.set_error_classes(classes) # the classes C raises, by status code
end
