/**
 * DynamoDB expressions (condition, filter, key condition, update, projection): parsed once per
 * text (cached) and evaluated over wire-form items with the request's `#names` and `:values`.
 * Grammar and semantics as the DynamoDB developer guide states them; what is not supported here
 * throws, so a writer that needs more says so loudly instead of being evaluated wrongly.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  addNumbers,
  cloneValue,
  compareScalars,
  typeOf,
  valuesEqual,
  ValidationError,
  type AttributeMap,
} from './values.js';

export type PathElement = string | number;
export type Path = PathElement[];

type Operand =
  | { kind: 'path'; path: Path }
  | { kind: 'value'; name: string }
  | { kind: 'size'; path: Path }
  | { kind: 'if_not_exists'; path: Path; fallback: Operand }
  | { kind: 'list_append'; left: Operand; right: Operand }
  | { kind: 'arith'; op: '+' | '-'; left: Operand; right: Operand };

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; inner: Condition }
  | { kind: 'cmp'; op: '=' | '<>' | '<' | '<=' | '>' | '>='; left: Operand; right: Operand }
  | { kind: 'between'; subject: Operand; low: Operand; high: Operand }
  | { kind: 'in'; subject: Operand; list: Operand[] }
  | { kind: 'fn'; name: string; args: Operand[] };

export interface UpdatePlan {
  set: { path: Path; value: Operand }[];
  remove: Path[];
  add: { path: Path; value: Operand }[];
  delete: { path: Path; value: Operand }[];
}

/** The request's substitutions. */
export interface Substitutions {
  names: Record<string, string>;
  values: AttributeMap;
}

// ---------------------------------------------------------------- tokens

type Token = { t: 'id' | 'name' | 'value' | 'int' | 'op'; v: string };

const TOKEN = /\s*(?:(#[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|(<>|<=|>=|[=<>(),.[\]+-]))/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let position = 0;
  while (position < text.length) {
    if (/^\s*$/.test(text.slice(position))) break;
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(text);
    if (!match)
      throw new ValidationError(`Invalid expression: syntax error near "${text.slice(position, position + 12)}"`);
    position = TOKEN.lastIndex;
    if (match[1]) tokens.push({ t: 'name', v: match[1] });
    else if (match[2]) tokens.push({ t: 'value', v: match[2] });
    else if (match[3]) tokens.push({ t: 'id', v: match[3] });
    else if (match[4]) tokens.push({ t: 'int', v: match[4] });
    else tokens.push({ t: 'op', v: match[5]! });
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
  ) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset];
  }
  done(): boolean {
    return this.index >= this.tokens.length;
  }
  next(): Token {
    const token = this.tokens[this.index++];
    if (!token) this.fail('unexpected end of expression');
    return token;
  }
  isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.t === 'id' && token.v.toUpperCase() === word;
  }
  isOp(op: string): boolean {
    const token = this.peek();
    return token?.t === 'op' && token.v === op;
  }
  expectOp(op: string): void {
    const token = this.next();
    if (token.t !== 'op' || token.v !== op) this.fail(`expected "${op}", got "${token.v}"`);
  }
  fail(message: string): never {
    throw new ValidationError(`Invalid expression "${this.text}": ${message}`);
  }

  // condition := or
  condition(): Condition {
    let left = this.conjunction();
    while (this.isKeyword('OR')) {
      this.next();
      left = { kind: 'or', left, right: this.conjunction() };
    }
    return left;
  }
  private conjunction(): Condition {
    let left = this.negation();
    while (this.isKeyword('AND')) {
      this.next();
      left = { kind: 'and', left, right: this.negation() };
    }
    return left;
  }
  private negation(): Condition {
    if (this.isKeyword('NOT')) {
      this.next();
      return { kind: 'not', inner: this.negation() };
    }
    return this.primary();
  }
  private primary(): Condition {
    if (this.isOp('(')) {
      this.next();
      const inner = this.condition();
      this.expectOp(')');
      return inner;
    }
    const head = this.peek();
    const following = this.peek(1);
    if (head?.t === 'id' && following?.t === 'op' && following.v === '(') {
      const name = head.v;
      if (CONDITION_FUNCTIONS.has(name)) {
        this.index += 2;
        const args = this.arguments();
        return { kind: 'fn', name, args };
      }
    }
    const subject = this.operand();
    if (this.isKeyword('BETWEEN')) {
      this.next();
      const low = this.operand();
      if (!this.isKeyword('AND')) this.fail('BETWEEN needs AND');
      this.next();
      return { kind: 'between', subject, low, high: this.operand() };
    }
    if (this.isKeyword('IN')) {
      this.next();
      this.expectOp('(');
      const list = this.arguments();
      if (list.length === 0 || list.length > 100) this.fail('IN takes 1..100 operands');
      return { kind: 'in', subject, list };
    }
    const op = this.next();
    if (op.t !== 'op' || !['=', '<>', '<', '<=', '>', '>='].includes(op.v))
      this.fail(`expected a comparator, got "${op.v}"`);
    return { kind: 'cmp', op: op.v as '=', left: subject, right: this.operand() };
  }
  /** After "(": operands separated by commas, then ")". */
  private arguments(): Operand[] {
    const args: Operand[] = [];
    if (this.isOp(')')) {
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.setOperand());
      const token = this.next();
      if (token.t === 'op' && token.v === ')') return args;
      if (token.t !== 'op' || token.v !== ',') this.fail(`expected "," or ")", got "${token.v}"`);
    }
  }
  operand(): Operand {
    const token = this.peek();
    if (token?.t === 'value') {
      this.next();
      return { kind: 'value', name: token.v };
    }
    if (token?.t === 'id' && token.v === 'size' && this.peek(1)?.v === '(') {
      this.index += 2;
      const path = this.path();
      this.expectOp(')');
      return { kind: 'size', path };
    }
    return { kind: 'path', path: this.path() };
  }
  /** An update's SET value: operand, or operand + / - operand, with if_not_exists and list_append. */
  setValue(): Operand {
    const left = this.setOperand();
    if (this.isOp('+') || this.isOp('-')) {
      const op = this.next().v as '+' | '-';
      return { kind: 'arith', op, left, right: this.setOperand() };
    }
    return left;
  }
  private setOperand(): Operand {
    const token = this.peek();
    if (token?.t === 'id' && this.peek(1)?.v === '(') {
      if (token.v === 'if_not_exists') {
        this.index += 2;
        const path = this.path();
        this.expectOp(',');
        const fallback = this.setOperand();
        this.expectOp(')');
        return { kind: 'if_not_exists', path, fallback };
      }
      if (token.v === 'list_append') {
        this.index += 2;
        const left = this.setOperand();
        this.expectOp(',');
        const right = this.setOperand();
        this.expectOp(')');
        return { kind: 'list_append', left, right };
      }
    }
    return this.operand();
  }
  path(): Path {
    const path: Path = [this.pathName()];
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        path.push(this.pathName());
      } else if (this.isOp('[')) {
        this.next();
        const index = this.next();
        if (index.t !== 'int') this.fail('a list index must be a number');
        this.expectOp(']');
        path.push(Number(index.v));
      } else return path;
    }
  }
  private pathName(): string {
    const token = this.next();
    if (token.t === 'name') return token.v;
    if (token.t === 'id') return `=${token.v}`;
    return this.fail(`expected an attribute name, got "${token.v}"`);
  }
}

const CONDITION_FUNCTIONS = new Set([
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
]);

// ---------------------------------------------------------------- parsing (cached)

const referenceCache = new Map<string, { names: string[]; values: string[] }>();

/** The `#names` and `:values` an expression mentions (DynamoDB refuses a request with unused ones). */
export function references(text: string): { names: string[]; values: string[] } {
  let found = referenceCache.get(text);
  if (!found) {
    const tokens = tokenize(text);
    found = {
      names: tokens.filter((t) => t.t === 'name').map((t) => t.v),
      values: tokens.filter((t) => t.t === 'value').map((t) => t.v),
    };
    referenceCache.set(text, found);
  }
  return found;
}

const conditionCache = new Map<string, Condition>();
const updateCache = new Map<string, UpdatePlan>();
const projectionCache = new Map<string, Path[]>();

export function parseCondition(text: string): Condition {
  let parsed = conditionCache.get(text);
  if (!parsed) {
    const parser = new Parser(tokenize(text), text);
    parsed = parser.condition();
    if (!parser.done()) parser.fail(`unexpected "${parser.peek()!.v}"`);
    conditionCache.set(text, parsed);
  }
  return parsed;
}

export function parseUpdate(text: string): UpdatePlan {
  let parsed = updateCache.get(text);
  if (parsed) return parsed;
  const parser = new Parser(tokenize(text), text);
  parsed = { set: [], remove: [], add: [], delete: [] };
  const seen = new Set<string>();
  while (!parser.done()) {
    const clause = parser.next();
    const keyword = clause.t === 'id' ? clause.v.toUpperCase() : '';
    if (!['SET', 'REMOVE', 'ADD', 'DELETE'].includes(keyword))
      parser.fail(`expected SET, REMOVE, ADD or DELETE, got "${clause.v}"`);
    if (seen.has(keyword)) parser.fail(`the ${keyword} section can only be used once`);
    seen.add(keyword);
    for (;;) {
      const path = parser.path();
      if (keyword === 'SET') {
        parser.expectOp('=');
        parsed.set.push({ path, value: parser.setValue() });
      } else if (keyword === 'REMOVE') parsed.remove.push(path);
      else if (keyword === 'ADD') parsed.add.push({ path, value: parser.operand() });
      else parsed.delete.push({ path, value: parser.operand() });
      if (!parser.isOp(',')) break;
      parser.next();
    }
  }
  updateCache.set(text, parsed);
  return parsed;
}

export function parseProjection(text: string): Path[] {
  let parsed = projectionCache.get(text);
  if (!parsed) {
    const parser = new Parser(tokenize(text), text);
    parsed = [parser.path()];
    while (!parser.done()) {
      parser.expectOp(',');
      parsed.push(parser.path());
    }
    projectionCache.set(text, parsed);
  }
  return parsed;
}

// ---------------------------------------------------------------- evaluation

/** The attribute names of a path, substitutions applied. */
export function resolvePath(path: Path, subs: Substitutions): PathElement[] {
  return path.map((element) => {
    if (typeof element === 'number') return element;
    if (element.startsWith('=')) return element.slice(1);
    const name = subs.names[element];
    if (name === undefined)
      throw new ValidationError(
        `An expression attribute name used in the document path is not defined; attribute name: ${element}`,
      );
    return name;
  });
}

function valueOf(name: string, subs: Substitutions): AttributeValue {
  const value = subs.values[name];
  if (value === undefined)
    throw new ValidationError(
      `An expression attribute value used in expression is not defined; attribute value: ${name}`,
    );
  return value;
}

export function readPath(item: AttributeMap | undefined, path: PathElement[]): AttributeValue | undefined {
  if (!item) return undefined;
  let current: AttributeValue | undefined = item[path[0] as string];
  for (let i = 1; i < path.length && current !== undefined; i++) {
    const element = path[i]!;
    current = typeof element === 'number' ? current.L?.[element] : current.M?.[element];
  }
  return current;
}

function evaluate(operand: Operand, item: AttributeMap | undefined, subs: Substitutions): AttributeValue | undefined {
  switch (operand.kind) {
    case 'value':
      return valueOf(operand.name, subs);
    case 'path':
      return readPath(item, resolvePath(operand.path, subs));
    case 'size': {
      const value = readPath(item, resolvePath(operand.path, subs));
      if (value === undefined) return undefined;
      const size =
        value.S !== undefined
          ? Buffer.byteLength(value.S, 'utf8')
          : (value.B?.byteLength ??
            value.SS?.length ??
            value.NS?.length ??
            value.BS?.length ??
            value.L?.length ??
            (value.M ? Object.keys(value.M).length : undefined));
      return size === undefined ? undefined : { N: String(size) };
    }
    case 'if_not_exists':
      return readPath(item, resolvePath(operand.path, subs)) ?? evaluate(operand.fallback, item, subs);
    case 'list_append': {
      const left = evaluate(operand.left, item, subs);
      const right = evaluate(operand.right, item, subs);
      if (left?.L === undefined || right?.L === undefined)
        throw new ValidationError('An operand in the update expression has an incorrect data type');
      return { L: [...left.L, ...right.L].map(cloneValue) };
    }
    case 'arith': {
      const left = evaluate(operand.left, item, subs);
      const right = evaluate(operand.right, item, subs);
      if (left === undefined || right === undefined)
        throw new ValidationError('The provided expression refers to an attribute that does not exist in the item');
      if (left.N === undefined || right.N === undefined)
        throw new ValidationError('An operand in the update expression has an incorrect data type');
      return { N: addNumbers(left.N, right.N, operand.op === '+' ? 1 : -1) };
    }
  }
}

/** Whether `condition` holds for `item` (undefined: the item does not exist). */
export function holds(condition: Condition, item: AttributeMap | undefined, subs: Substitutions): boolean {
  switch (condition.kind) {
    case 'and':
      return holds(condition.left, item, subs) && holds(condition.right, item, subs);
    case 'or':
      return holds(condition.left, item, subs) || holds(condition.right, item, subs);
    case 'not':
      return !holds(condition.inner, item, subs);
    case 'cmp': {
      const left = evaluate(condition.left, item, subs);
      const right = evaluate(condition.right, item, subs);
      if (condition.op === '=') return left !== undefined && right !== undefined && valuesEqual(left, right);
      if (condition.op === '<>') return !(left !== undefined && right !== undefined && valuesEqual(left, right));
      if (left === undefined || right === undefined) return false;
      const order = compareScalars(left, right);
      if (order === undefined) return false;
      if (condition.op === '<') return order < 0;
      if (condition.op === '<=') return order <= 0;
      if (condition.op === '>') return order > 0;
      return order >= 0;
    }
    case 'between': {
      const subject = evaluate(condition.subject, item, subs);
      const low = evaluate(condition.low, item, subs);
      const high = evaluate(condition.high, item, subs);
      if (subject === undefined || low === undefined || high === undefined) return false;
      const bounds = compareScalars(low, high);
      if (bounds !== undefined && bounds > 0)
        throw new ValidationError(
          'Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound',
        );
      const above = compareScalars(subject, low);
      const below = compareScalars(subject, high);
      return above !== undefined && below !== undefined && above >= 0 && below <= 0;
    }
    case 'in': {
      const subject = evaluate(condition.subject, item, subs);
      const list = condition.list.map((operand) => evaluate(operand, item, subs));
      return subject !== undefined && list.some((value) => value !== undefined && valuesEqual(subject, value));
    }
    case 'fn':
      return callFunction(condition.name, condition.args, item, subs);
  }
}

function callFunction(name: string, args: Operand[], item: AttributeMap | undefined, subs: Substitutions): boolean {
  const pathArg = args[0];
  if (pathArg?.kind !== 'path')
    throw new ValidationError(`Invalid ${name}: its first operand must be an attribute path`);
  const subject = readPath(item, resolvePath(pathArg.path, subs));
  const arity = name === 'attribute_exists' || name === 'attribute_not_exists' ? 1 : 2;
  if (args.length !== arity) throw new ValidationError(`Incorrect number of operands for ${name}`);
  if (name === 'attribute_exists') return subject !== undefined;
  if (name === 'attribute_not_exists') return subject === undefined;
  const operand = evaluate(args[1]!, item, subs);
  if (subject === undefined || operand === undefined) return false;
  if (name === 'attribute_type') return operand.S !== undefined && typeOf(subject) === operand.S;
  if (name === 'begins_with') {
    if (subject.S !== undefined && operand.S !== undefined) return subject.S.startsWith(operand.S);
    if (subject.B !== undefined && operand.B !== undefined)
      return Buffer.from(subject.B).subarray(0, operand.B.byteLength).equals(Buffer.from(operand.B));
    return false;
  }
  // contains
  if (subject.S !== undefined) return operand.S !== undefined && subject.S.includes(operand.S);
  if (subject.SS !== undefined) return operand.S !== undefined && subject.SS.includes(operand.S);
  if (subject.NS !== undefined)
    return operand.N !== undefined && subject.NS.some((n) => valuesEqual({ N: n }, operand));
  if (subject.BS !== undefined) return subject.BS.some((b) => valuesEqual({ B: b }, operand));
  if (subject.L !== undefined) return subject.L.some((element) => valuesEqual(element, operand));
  return false;
}

// ---------------------------------------------------------------- updates

/**
 * The item after `plan` (a new object; `item` is left untouched). Every value is computed from
 * the item as it was, then SET, REMOVE, ADD and DELETE apply. `keyNames` cannot be updated.
 */
export function applyUpdate(
  plan: UpdatePlan,
  item: AttributeMap | undefined,
  subs: Substitutions,
  keyNames: readonly string[],
): { item: AttributeMap; updated: Set<string> } {
  const sets = plan.set.map(({ path, value }) => ({
    path: resolvePath(path, subs),
    value: evaluate(value, item, subs)!,
  }));
  const removes = plan.remove.map((path) => resolvePath(path, subs));
  const adds = plan.add.map(({ path, value }) => ({
    path: resolvePath(path, subs),
    value: evaluate(value, item, subs)!,
  }));
  const deletes = plan.delete.map(({ path, value }) => ({
    path: resolvePath(path, subs),
    value: evaluate(value, item, subs)!,
  }));
  const all = [...sets.map((s) => s.path), ...removes, ...adds.map((a) => a.path), ...deletes.map((d) => d.path)];
  checkNoOverlap(all);
  for (const path of all) {
    if (path.length === 1 && keyNames.includes(path[0] as string))
      throw new ValidationError(`Cannot update attribute ${String(path[0])}. This attribute is part of the key`);
  }
  const next: AttributeMap = item ? { ...item } : {};
  const updated = new Set<string>(all.map((path) => path[0] as string));
  for (const { path, value } of sets) writePath(next, path, cloneValue(value));
  for (const path of removes) removePath(next, path);
  for (const { path, value } of adds) {
    const current = readPath(next, path);
    if (value.N !== undefined) {
      if (current !== undefined && current.N === undefined)
        throw new ValidationError('An operand in the update expression has an incorrect data type');
      writePath(next, path, { N: current ? addNumbers(current.N!, value.N, 1) : addNumbers('0', value.N, 1) });
    } else if (isSet(value)) {
      if (current !== undefined && typeOf(current) !== typeOf(value))
        throw new ValidationError('An operand in the update expression has an incorrect data type');
      const members = current ? setMembers(current) : [];
      for (const member of setMembers(value)) if (!members.some((m) => valuesEqual(m, member))) members.push(member);
      writePath(next, path, makeSet(typeOf(value), members));
    } else throw new ValidationError('Incorrect operand type for operator or function; operator: ADD');
  }
  for (const { path, value } of deletes) {
    const current = readPath(next, path);
    if (current === undefined) continue;
    if (!isSet(value) || typeOf(current) !== typeOf(value))
      throw new ValidationError('An operand in the update expression has an incorrect data type');
    const removed = setMembers(value);
    const members = setMembers(current).filter((m) => !removed.some((d) => valuesEqual(m, d)));
    if (members.length === 0) removePath(next, path);
    else writePath(next, path, makeSet(typeOf(value), members));
  }
  return { item: next, updated };
}

function isSet(value: AttributeValue): boolean {
  return value.SS !== undefined || value.NS !== undefined || value.BS !== undefined;
}

/** A set's members as scalar values. */
function setMembers(value: AttributeValue): AttributeValue[] {
  if (value.SS !== undefined) return value.SS.map((S) => ({ S }));
  if (value.NS !== undefined) return value.NS.map((N) => ({ N }));
  if (value.BS !== undefined) return value.BS.map((B) => ({ B }));
  throw new ValidationError('An operand in the update expression has an incorrect data type');
}

function makeSet(type: string, members: AttributeValue[]): AttributeValue {
  if (type === 'SS') return { SS: members.map((m) => m.S!) };
  if (type === 'NS') return { NS: members.map((m) => m.N!) };
  return { BS: members.map((m) => m.B!) };
}

function checkNoOverlap(paths: PathElement[][]): void {
  const texts = paths.map((path) => path.map((e) => (typeof e === 'number' ? `[${e}]` : `.${e}`)).join(''));
  for (let i = 0; i < texts.length; i++) {
    for (let j = 0; j < texts.length; j++) {
      if (i === j) continue;
      const a = texts[i]!;
      const b = texts[j]!;
      if (a === b || b.startsWith(`${a}.`) || b.startsWith(`${a}[`))
        throw new ValidationError(
          `Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths`,
        );
    }
  }
}

/** Writes a value at a path, copying the containers on the way (the item's old values stay unshared). */
function writePath(item: AttributeMap, path: PathElement[], value: AttributeValue): void {
  if (path.length === 1) {
    item[path[0] as string] = value;
    return;
  }
  const head = path[0] as string;
  const child = item[head];
  if (child === undefined)
    throw new ValidationError('The document path provided in the update expression is invalid for update');
  item[head] = writeInto(child, path.slice(1), value);
}

function writeInto(container: AttributeValue, path: PathElement[], value: AttributeValue): AttributeValue {
  const [element, ...rest] = path;
  if (typeof element === 'number') {
    if (container.L === undefined)
      throw new ValidationError('The document path provided in the update expression is invalid for update');
    const list = [...container.L];
    const at = Math.min(element, list.length);
    if (rest.length === 0) list[at] = value;
    else {
      const child = list[at];
      if (child === undefined)
        throw new ValidationError('The document path provided in the update expression is invalid for update');
      list[at] = writeInto(child, rest, value);
    }
    return { L: list };
  }
  if (container.M === undefined)
    throw new ValidationError('The document path provided in the update expression is invalid for update');
  const map = { ...container.M };
  if (rest.length === 0) map[element!] = value;
  else {
    const child = map[element!];
    if (child === undefined)
      throw new ValidationError('The document path provided in the update expression is invalid for update');
    map[element!] = writeInto(child, rest, value);
  }
  return { M: map };
}

function removePath(item: AttributeMap, path: PathElement[]): void {
  if (path.length === 1) {
    delete item[path[0] as string];
    return;
  }
  const head = path[0] as string;
  const child = item[head];
  if (child === undefined) return;
  item[head] = removeFrom(child, path.slice(1));
}

function removeFrom(container: AttributeValue, path: PathElement[]): AttributeValue {
  const [element, ...rest] = path;
  if (typeof element === 'number') {
    if (container.L === undefined || container.L[element] === undefined) return container;
    const list = [...container.L];
    if (rest.length === 0) list.splice(element, 1);
    else list[element] = removeFrom(list[element]!, rest);
    return { L: list };
  }
  if (container.M === undefined || container.M[element!] === undefined) return container;
  const map = { ...container.M };
  if (rest.length === 0) delete map[element!];
  else map[element!] = removeFrom(map[element!]!, rest);
  return { M: map };
}

/** The item reduced to the projected paths (top-level and nested). */
export function project(item: AttributeMap, paths: Path[], subs: Substitutions): AttributeMap {
  const out: AttributeMap = {};
  for (const path of paths) {
    const resolved = resolvePath(path, subs);
    const value = readPath(item, resolved);
    if (value === undefined) continue;
    if (resolved.length === 1) out[resolved[0] as string] = cloneValue(value);
    else {
      // Nested projections keep the containers' shape (maps only; list elements collapse in order).
      let target: AttributeMap = out;
      for (let i = 0; i < resolved.length - 1; i++) {
        const name = String(resolved[i]);
        const existing: AttributeValue = target[name] ?? { M: {} };
        target[name] = existing;
        target = existing.M ?? {};
      }
      target[String(resolved[resolved.length - 1])] = cloneValue(value);
    }
  }
  return out;
}
