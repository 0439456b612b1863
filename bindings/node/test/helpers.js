'use strict';
// Shared by the test files: the repository's schemas and conformance vectors.
const path = require('path');

const repo = path.resolve(__dirname, '..', '..', '..');
const schemas = path.join(repo, 'schemas');
const conformance = path.join(repo, 'tests', 'conformance');

const fbe = require('..');

function proto() {
  return fbe.load(path.join(schemas, 'proto.fbe'), { include: [schemas] });
}

function test() {
  return fbe.load(path.join(schemas, 'test.fbe'), { include: [schemas] });
}

/** The README's Account: three orders. */
function account(schema) {
  const { Account, Balance, Order, State, OrderSide, OrderType } = schema;
  return new Account({
    id: 1,
    name: 'Test',
    state: State.good,
    wallet: new Balance({ currency: 'USD', amount: 1000 }),
    asset: new Balance({ currency: 'EUR', amount: 100 }),
    orders: [
      new Order({ id: 1, symbol: 'EURUSD', side: OrderSide.buy, type: OrderType.market, price: 1.23456, volume: 1000 }),
      new Order({ id: 2, symbol: 'EURUSD', side: OrderSide.sell, type: OrderType.limit, price: 1.0, volume: 100 }),
      new Order({ id: 3, symbol: 'EURUSD', side: OrderSide.buy, type: OrderType.stop, price: 1.5, volume: 10 }),
    ],
  });
}

module.exports = { fbe, repo, schemas, conformance, proto, test, account };
