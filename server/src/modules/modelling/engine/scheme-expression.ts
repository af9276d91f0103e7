/**
 * The expressions of a scheme (its filter and partial order lines, spec workflow §3 "Scheme"):
 * a small parser of comparisons joined by `and` / `or` / `not` over the columns of one row,
 * and their evaluation on a table. `scheme.ts` checks a scheme's data with it and applies it.
 */
import type { TableColumns } from '@decisio/learning';

/** A parsed expression over one row. */
export type Expr =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'col'; name: string }
  | { t: 'not'; e: Expr }
  | { t: 'neg'; e: Expr }
  | { t: 'logic'; op: 'and' | 'or'; l: Expr; r: Expr }
  | { t: 'arith'; op: '+' | '-' | '*' | '/' | '%'; l: Expr; r: Expr }
  | { t: 'cmp'; ops: CmpOp[]; items: Expr[] };
type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

type Token = { k: 'num'; v: number } | { k: 'str'; v: string } | { k: 'id'; v: string } | { k: 'op'; v: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
    if (num) {
      out.push({ k: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed ${c} at ${i + 1}`);
      const v = text.slice(i + 1, end);
      out.push(c === '`' ? { k: 'id', v } : { k: 'str', v });
      i = end + 1;
      continue;
    }
    const id = /^[A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*/.exec(text.slice(i));
    if (id) {
      out.push({ k: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    const op = /^(==|!=|<>|<=|>=|&&|\|\||[<>=!()+\-*/%])/.exec(text.slice(i));
    if (!op) throw new Error(`unexpected '${c}' at ${i + 1}`);
    out.push({ k: 'op', v: op[0] });
    i += op[0].length;
  }
  return out;
}

/** Parses a filter or partial-order expression (see the module comment). */
export function parseExpression(text: string): Expr {
  const tokens = tokenize(text);
  let p = 0;
  const peek = () => tokens[p];
  const isOp = (...vs: string[]) => {
    const t = peek();
    return t !== undefined && ((t.k === 'op' && vs.includes(t.v)) || (t.k === 'id' && vs.includes(t.v.toLowerCase())));
  };
  const next = () => tokens[p++];
  const or = (): Expr => {
    let l = and();
    while (isOp('or', '||')) {
      next();
      l = { t: 'logic', op: 'or', l, r: and() };
    }
    return l;
  };
  const and = (): Expr => {
    let l = not();
    while (isOp('and', '&&')) {
      next();
      l = { t: 'logic', op: 'and', l, r: not() };
    }
    return l;
  };
  const not = (): Expr => {
    if (isOp('not', '!')) {
      next();
      return { t: 'not', e: not() };
    }
    return cmp();
  };
  const CMP: Record<string, CmpOp> = { '==': '==', '=': '==', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
  const cmp = (): Expr => {
    const items = [sum()];
    const ops: CmpOp[] = [];
    while (peek()?.k === 'op' && CMP[peek()!.v]) {
      ops.push(CMP[next()!.v]!);
      items.push(sum());
    }
    return ops.length === 0 ? items[0]! : { t: 'cmp', ops, items };
  };
  const sum = (): Expr => {
    let l = prod();
    while (isOp('+', '-')) l = { t: 'arith', op: next()!.v as '+' | '-', l, r: prod() };
    return l;
  };
  const prod = (): Expr => {
    let l = unary();
    while (isOp('*', '/', '%')) l = { t: 'arith', op: next()!.v as '*' | '/' | '%', l, r: unary() };
    return l;
  };
  const unary = (): Expr => {
    if (isOp('-')) {
      next();
      return { t: 'neg', e: unary() };
    }
    return primary();
  };
  const primary = (): Expr => {
    const t = next();
    if (!t) throw new Error('the expression ends too early');
    if (t.k === 'num') return { t: 'num', v: t.v };
    if (t.k === 'str') return { t: 'str', v: t.v };
    if (t.k === 'id') {
      const low = t.v.toLowerCase();
      if (low === 'true') return { t: 'num', v: 1 };
      if (low === 'false') return { t: 'num', v: 0 };
      if (['and', 'or', 'not'].includes(low)) throw new Error(`'${t.v}' needs something before it`);
      return { t: 'col', name: t.v };
    }
    if (t.v === '(') {
      const e = or();
      if (next()?.v !== ')') throw new Error("a '(' is not closed");
      return e;
    }
    throw new Error(`unexpected '${t.v}'`);
  };
  if (tokens.length === 0) throw new Error('the expression is empty');
  const e = or();
  if (p < tokens.length) {
    const t = tokens[p]!;
    throw new Error(`unexpected '${t.k === 'num' ? t.v : t.v}'`);
  }
  return e;
}

/** Column names an expression reads. */
export function columnsOf(e: Expr, out = new Set<string>()): Set<string> {
  if (e.t === 'col') out.add(e.name);
  else if (e.t === 'not' || e.t === 'neg') columnsOf(e.e, out);
  else if (e.t === 'logic' || e.t === 'arith') {
    columnsOf(e.l, out);
    columnsOf(e.r, out);
  } else if (e.t === 'cmp') for (const i of e.items) columnsOf(i, out);
  return out;
}

/** A cell as expressions see it. */
export type Value = number | string;

/** A cell as a value: numbers (and numeric text) as numbers, other text as text, empty as NaN. */
export function cell(v: unknown): Value {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.getTime();
  if (v === null || v === undefined) return NaN;
  const s = String(v).trim();
  if (s === '') return NaN;
  const n = Number(s);
  return Number.isNaN(n) ? s : n;
}

/** A cell as a condition: a non-zero number or a non-empty text. */
export const truthy = (v: Value) => (typeof v === 'number' ? v !== 0 && !Number.isNaN(v) : v !== '');
/** A cell as a number (text: NaN). */
export const asNumber = (v: Value) => (typeof v === 'number' ? v : NaN);

export function compare(a: Value, op: CmpOp, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return op === '!=';
  } else {
    a = String(a);
    b = String(b);
  }
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/** Evaluates an expression on row `r` of `table`. */
export function evaluate(e: Expr, table: TableColumns, r: number): Value {
  switch (e.t) {
    case 'num':
    case 'str':
      return e.v;
    case 'col':
      return cell(table[e.name]![r]);
    case 'not':
      return truthy(evaluate(e.e, table, r)) ? 0 : 1;
    case 'neg':
      return -asNumber(evaluate(e.e, table, r));
    case 'logic': {
      const l = truthy(evaluate(e.l, table, r));
      if (e.op === 'and') return l && truthy(evaluate(e.r, table, r)) ? 1 : 0;
      return l || truthy(evaluate(e.r, table, r)) ? 1 : 0;
    }
    case 'arith': {
      const a = asNumber(evaluate(e.l, table, r));
      const b = asNumber(evaluate(e.r, table, r));
      return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : e.op === '/' ? a / b : a % b;
    }
    case 'cmp': {
      let left = evaluate(e.items[0]!, table, r);
      for (let i = 0; i < e.ops.length; i++) {
        const right = evaluate(e.items[i + 1]!, table, r);
        if (!compare(left, e.ops[i]!, right)) return 0;
        left = right;
      }
      return 1;
    }
  }
}
