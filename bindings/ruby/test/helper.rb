# frozen_string_literal: true

# Shared by the suites: where the schemas and conformance files are, the loaded test
# schemas, the README's Account. FBE_REPO points at a repository checkout (default: the
# one this file is in), so the suites also run against an installed gem from elsewhere.
require "minitest/autorun"
require "json"
require "fbe"

module Helper
  REPO = File.expand_path(ENV.fetch("FBE_REPO", File.join(__dir__, "..", "..", "..")))
  SCHEMAS = File.join(REPO, "schemas")
  CONFORMANCE = File.join(REPO, "tests", "conformance")

  def self.records(name)
    File.readlines(File.join(CONFORMANCE, name), chomp: true).reject { |l| l.strip.empty? }.map { |l| JSON.parse(l) }
  end

  def self.schema(package)
    (@schemas ||= {})[package] ||= FBE.load_package(package, include: [SCHEMAS])
  end

  def self.bytes(hex)
    [hex].pack("H*")
  end

  def proto
    Helper.schema("proto")
  end

  def schema_test
    Helper.schema("test")
  end

  def readme_account(s = proto)
    s::Account.new(
      id: 1, name: "Test", state: s::State::GOOD,
      wallet: s::Balance.new(currency: "USD", amount: 1000.0),
      asset: s::Balance.new(currency: "EUR", amount: 100.0),
      orders: [s::Order.new(id: 1, symbol: "EURUSD", side: s::OrderSide::BUY, type: s::OrderType::MARKET,
                            price: 1.23456, volume: 1000.0),
               s::Order.new(id: 2, symbol: "EURUSD", side: s::OrderSide::SELL, type: s::OrderType::LIMIT,
                            price: 1.0, volume: 100.0),
               s::Order.new(id: 3, symbol: "EURUSD", side: s::OrderSide::BUY, type: s::OrderType::STOP,
                            price: 1.5, volume: 10.0)]
    )
  end

  def record(id)
    @records ||= Helper.records("vectors.jsonl").to_h { |r| [r["id"], r] }
    @records.fetch(id)
  end
end
