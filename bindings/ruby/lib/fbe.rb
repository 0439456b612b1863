# frozen_string_literal: true

# fbe: Fast Binary Encoding with .fbe schemas loaded at run time.
#
# A thin skin over the libfbe C core: SWIG wraps its schema API (FBE::Core), and a
# hand-written C walk (FBE::Native) turns Ruby objects into messages and back,
# crossing into C once per message.
#
#   require "fbe"
#   schema = FBE.load("schemas/proto.fbe", include: ["schemas"])
#   acc = schema::Account.new(id: 1, name: "Test", wallet: schema::Balance.new(currency: "USD"))
#   data = acc.encode                    # standard model; encode(final: true): final model
#   schema::Account.decode(data) == acc  # == is deep; hash and <=> use the [key] fields
#   puts acc                             # the text form: Account(id=1,name="Test",...)
#   schema::Account.view(data).name      # read in place from the verified bytes
require "bigdecimal"
require "set"

begin
  require "fbe/core"
rescue LoadError => e # no pure-Ruby fallback, on purpose
  raise LoadError, "fbe: the compiled extension fbe/core is missing or cannot be loaded (#{e.message}). " \
                   "Install the gem with `gem install` so that it is compiled; fbe has no pure-Ruby fallback."
end

require_relative "fbe/version"
require_relative "fbe/errors"
require_relative "fbe/limits"
require_relative "fbe/message"
require_relative "fbe/view"
require_relative "fbe/schema"
require_relative "fbe/wire"
require_relative "fbe/protocol"
require_relative "fbe/future"
require_relative "fbe/client"
require_relative "fbe/server"

module FBE
  # Version of the C core compiled into the extension.
  CORE_VERSION = Core.fbe_version

  # How a message of reply_type may answer a request of request_type (struct classes):
  # :response, :reject or nil (the core's fbe_reply_kind).
  def self.reply_kind(request_type, reply_type)
    Native.reply_kind(request_type, reply_type)
  end
end
