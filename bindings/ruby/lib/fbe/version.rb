# frozen_string_literal: true

module FBE
  VERSION = "0.1.0"
end
