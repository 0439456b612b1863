# frozen_string_literal: true

require_relative "lib/fbe/version"

Gem::Specification.new do |s|
  s.name = "fbe"
  s.version = FBE::VERSION
  s.summary = "Fast Binary Encoding (FBE) with .fbe schemas loaded at run time: a thin skin over the libfbe C core"
  s.description = "Encode, decode, verify and stream FBE messages (standard and final models, " \
                  "byte-exact with the reference) for any .fbe schema loaded at run time. " \
                  "The libfbe C core and its SWIG wrapper are compiled into the extension."
  s.authors = ["libfbe contributors"]
  s.license = "MIT"
  s.homepage = "https://github.com/libfbe/libfbe"
  s.required_ruby_version = ">= 2.7"
  # Decimals are BigDecimals: a default gem up to Ruby 3.3, a bundled one from 3.4 on.
  s.add_dependency "bigdecimal", ">= 2.0"
  # ext/fbe carries copies of core/ and native/ and the SWIG output made by tools/build_gem.sh.
  s.files = Dir["lib/**/*.rb", "ext/fbe/**/*.{c,h,rb}", "ext/fbe/core/sources.txt", "bin/*", "README.md", "LICENSE"]
  s.extensions = ["ext/fbe/extconf.rb"]
  s.bindir = "bin"
  s.executables = ["fbe-testee"]
  s.require_paths = ["lib"]
end
