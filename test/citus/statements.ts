import {
  type A_Expr,
  type ColumnRef,
  type DeleteStmt,
  type InsertStmt,
  loadModule,
  type Node,
  type OnConflictClause,
  parseSync,
  type RangeVar,
  scanSync,
  type SelectStmt,
  type UpdateStmt,
  type WithClause,
} from 'libpg-query';
import { DISTRIBUTION_COLUMN, type SchemaPlacement } from '@wms/kit/placement';

// Citus is not packaged for this machine: this stands in for it on the statements (issue 42). A statement that reads or
// writes a distributed table must name the one workspace whose shard it runs on (`workspace_id` = a value), or Citus
// sends it to every shard. The real Postgres parser (libpg-query) reads each statement; the rule is applied per table
// occurrence, scope by scope (a UNION's arms, subqueries, CTE bodies, LATERAL, UPDATE ... FROM, DELETE ... USING,
// INSERT ... SELECT).

/** What a statement does that Citus would send to more than one shard: the table occurrence and why. */
export interface Finding {
  /** `schema.table`, with ` AS alias` when the statement names it otherwise. */
  table: string;
  reason: string;
}

/** Where the tables go (the services' placement maps) and, optionally, each table's columns (to place a bare column). */
export interface StatementRules {
  placements: readonly SchemaPlacement[];
  /** `schema.table` → its columns. Without it, a bare column among several relations stays unresolved. */
  columns?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Marks a statement meant to span workspaces (a sweep, a user's workspaces): `/* citus: multi-shard (why) *\/` in its
 * text. Its tables need no `workspace_id` predicate; it may not lock rows (`FOR UPDATE` on every shard).
 */
export const MULTI_SHARD_MARKER = /\/\*\s*citus: multi-shard \([^)]+\)\s*\*\//;

/** Loads the parser (WebAssembly); once, before `checkStatement`. */
export const loadParser = (): Promise<void> => loadModule();

/**
 * A statement's text as a one-line key: comments (`--`) dropped, whitespace collapsed, and a list of parameters spelled
 * out one by one (`IN ($1, $2, $3)`, a multi-row VALUES) written as its first element, the parameters numbered anew,
 * since its length is the data's.
 */
export function normaliseStatement(sql: string): string {
  const bytes = Buffer.from(sql);
  const kept: Buffer[] = [];
  let at = 0;
  for (const token of scanSync(sql).tokens) {
    if (token.tokenName !== 'SQL_COMMENT') continue;
    kept.push(bytes.subarray(at, token.start));
    at = token.end;
  }
  kept.push(bytes.subarray(at));
  const text = Buffer.concat(kept)
    .toString()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(\((?:\$\d+, ?)*\$\d+\))(?:, ?\((?:\$\d+, ?)*\$\d+\))+/g, '$1, ...')
    .replace(/\((\$\d+)(?:, ?\$\d+)+\)/g, '($1, ...)');
  let n = 0;
  return text.replace(/\$\d+/g, () => `$${++n}`);
}

/** What `checkStatement` finds in a statement sent by a pool whose search_path is `schema`; empty when it is fine. */
export function checkStatement(rules: StatementRules, schema: string, sql: string): Finding[] {
  const multiShard = MULTI_SHARD_MARKER.test(sql);
  const findings: Finding[] = [];
  for (const { stmt } of parseSync(sql).stmts ?? []) {
    if (!stmt) continue;
    // Not a query (DDL, transaction control, SET): the rule leaves it alone.
    if (!QUERIES.some((kind) => kind in stmt)) continue;
    const walk = new Walk(rules, schema);
    walk.statement(stmt, { relations: [], ctes: new Map() });
    findings.push(...walk.findings(multiShard));
  }
  return findings;
}

const QUERIES = ['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt'];

/** A relation in a FROM list: a table, a subquery, a CTE or a function. */
interface Relation {
  id: number;
  /** What the statement calls it: its alias, else its name. */
  name: string;
  /** `schema.table` of a table. */
  table?: string;
  distributed: boolean;
  /** Its columns, when known; a bare column resolves to the one relation in scope that has it. */
  columns?: ReadonlySet<string>;
}

/** The relations a (sub)query sees: its own, then those of the queries around it (correlation). */
interface Scope {
  relations: Relation[];
  ctes: Map<string, Cte>;
  parent?: Scope;
}

/** A query's output column: its name, and the term it yields when it is a column, parameter or constant. */
interface Output {
  name?: string;
  term?: string;
  /** Part of a `*`: positions no longer match the written list. */
  star?: boolean;
}

/** A CTE's body as its references see it: its columns (when known) and what each yields in the body's level. */
interface Cte {
  columns?: ReadonlySet<string>;
  outputs: Output[];
  level: Level;
}

/**
 * A set of equalities that hold together. A subquery in FROM shares its query's level (Postgres pulls it up); a
 * correlated subquery, a LATERAL one and a UNION's arm get a level of their own, which sees what its parent level binds
 * but binds nothing in it; a CTE body one with no parent, whose bound output columns bind the references to them.
 */
class Level {
  readonly equalities: Array<[string, string]> = [];
  /** Terms bound by what another level binds: a CTE's output column that is bound in the CTE's body. */
  readonly derived: Array<{ term: string; from: Level; source: string }> = [];
  private classes?: UnionFind;

  constructor(readonly parent?: Level) {}

  isBound(term: string): boolean {
    return this.resolve().isBound(term);
  }

  same(a: string, b: string): boolean {
    return this.resolve().find(a) === this.resolve().find(b);
  }

  private resolve(): UnionFind {
    if (this.classes) return this.classes;
    const classes = this.parent ? this.parent.resolve().copy() : new UnionFind();
    for (const [a, b] of this.equalities) classes.union(a, b);
    for (const { term, from, source } of this.derived) if (from.isBound(source)) classes.union(term, VALUE);
    this.classes = classes;
    return classes;
  }
}

/** Terms that stand for a value the statement names: a parameter or a constant. */
const VALUE = 'value';
const isValue = (term: string) => term === VALUE || term.startsWith('$') || term.startsWith('const:');

class UnionFind {
  private readonly up = new Map<string, string>();

  copy(): UnionFind {
    const copy = new UnionFind();
    for (const [k, v] of this.up) copy.up.set(k, v);
    return copy;
  }

  find(term: string): string {
    let root = term;
    for (let next = this.up.get(root); next !== undefined && next !== root; next = this.up.get(root)) root = next;
    return root;
  }

  /** Joins two classes; a class holding a value keeps it as its root, so that `isBound` is one lookup. */
  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return;
    if (isValue(rb)) this.up.set(ra, rb);
    else this.up.set(rb, ra);
  }

  isBound(term: string): boolean {
    return isValue(this.find(term));
  }
}

/** An occurrence of a distributed table, checked once the whole statement is read. */
interface Occurrence {
  relation: Relation;
  level: Level;
  /** Set when the statement itself says why it is not bound (an INSERT without the column). */
  reason?: string;
}

const columnOf = (rel: Relation, column: string) => `${rel.id}.${column}`;
const NOWHERE = 'nowhere';
const relationLabel = (rel: Relation) =>
  rel.table && rel.table.split('.')[1] !== rel.name ? `${rel.table} AS ${rel.name}` : (rel.table ?? rel.name);
const sval = (node: Node | undefined): string | undefined =>
  node && 'String' in node ? (node.String.sval ?? '') : undefined;
const unwrap = (node: Node | undefined): Node | undefined =>
  node && 'TypeCast' in node ? unwrap(node.TypeCast.arg) : node;
const isValueNode = (node: Node): boolean => {
  const n = unwrap(node);
  return n !== undefined && ('ParamRef' in n || ('A_Const' in n && !n.A_Const.isnull));
};

/** Whether Postgres applies the outer query's conditions inside a subquery in FROM (pulls it up or pushes them down). */
const isPulledUp = (body: SelectStmt): boolean =>
  !body.limitCount &&
  !body.limitOffset &&
  !body.windowClause?.length &&
  !body.lockingClause?.length &&
  (body.op ?? 'SETOP_NONE') === 'SETOP_NONE';

/** One statement's walk: its relations, levels and equalities, then the findings. */
class Walk {
  private nextId = 0;
  private consts = 0;
  private readonly occurrences: Occurrence[] = [];
  /** Terms compared with `= ANY (...)` or an IN list of several: a distributed table's, they span workspaces. */
  private readonly anyOf = new Set<string>();
  private readonly problems: Finding[] = [];
  private locks = false;
  private readonly placement = new Map<string, string>();

  constructor(
    private readonly rules: StatementRules,
    private readonly searchPath: string,
  ) {
    for (const map of rules.placements)
      if (map.distribution === 'by-workspace')
        for (const [table, where] of Object.entries(map.tables)) this.placement.set(`${map.schema}.${table}`, where);
  }

  /** Walks a query and returns its output columns (a SELECT's, a write's RETURNING), when it has known ones. */
  statement(stmt: Node, scope: Scope, level = new Level()): Output[] | undefined {
    if ('SelectStmt' in stmt) return this.select(stmt.SelectStmt, scope, level);
    if ('InsertStmt' in stmt) return this.insert(stmt.InsertStmt, scope, level);
    if ('UpdateStmt' in stmt) return this.update(stmt.UpdateStmt, scope, level);
    if ('DeleteStmt' in stmt) return this.delete(stmt.DeleteStmt, scope, level);
    return undefined;
  }

  findings(multiShard: boolean): Finding[] {
    const found = [...this.problems];
    if (multiShard) {
      if (this.locks && this.occurrences.length > 0)
        found.push({
          table: [...new Set(this.occurrences.map((o) => relationLabel(o.relation)))].join(', '),
          reason: 'FOR UPDATE in a multi-shard statement: it would lock rows on every shard',
        });
      return found;
    }
    for (const { relation, level, reason } of this.occurrences) {
      const term = columnOf(relation, DISTRIBUTION_COLUMN);
      if (reason) found.push({ table: relationLabel(relation), reason });
      else if (level.isBound(term)) continue;
      else if ([...this.anyOf].some((listed) => level.same(listed, term)))
        found.push({ table: relationLabel(relation), reason: `${DISTRIBUTION_COLUMN} = ANY (...): spans workspaces` });
      else found.push({ table: relationLabel(relation), reason: `no ${DISTRIBUTION_COLUMN} = value predicate` });
    }
    return found;
  }

  // --- statements

  /** A SELECT in `level`: its CTEs, FROM, WHERE; then its expressions' subqueries, each in a level of its own. */
  select(stmt: SelectStmt, outer: Scope, level: Level): Output[] | undefined {
    const scope: Scope = { relations: [], ctes: new Map(), parent: outer };
    this.with(stmt.withClause, scope);
    if (stmt.op && stmt.op !== 'SETOP_NONE') {
      for (const arm of [stmt.larg, stmt.rarg]) if (arm) this.select(arm, scope, new Level(level));
      return undefined;
    }
    if ((stmt.lockingClause?.length ?? 0) > 0) this.locks = true;
    for (const item of stmt.fromClause ?? []) this.fromItem(item, scope, level);
    this.conjuncts(stmt.whereClause, scope, level);
    const { targetList, whereClause, havingClause, groupClause, sortClause, distinctClause, limitCount } = stmt;
    for (const part of [stmt.valuesLists, targetList, whereClause, havingClause, groupClause, sortClause])
      this.expressions(part, scope, level);
    this.expressions([distinctClause, limitCount, stmt.limitOffset], scope, level);
    return this.outputs(targetList, scope);
  }

  insert(stmt: InsertStmt, outer: Scope, level: Level): Output[] {
    const scope: Scope = { relations: [], ctes: new Map(), parent: outer };
    this.with(stmt.withClause, scope);
    // The target is no relation of the SELECT that fills it.
    const target = this.table(stmt.relation!, { relations: [], ctes: new Map() }, level, false);
    const columns = (stmt.cols ?? []).map((c) => ('ResTarget' in c ? (c.ResTarget.name ?? '') : ''));
    const at = columns.indexOf(DISTRIBUTION_COLUMN);
    const occurrence = this.occurrences.find((o) => o.relation === target);
    if (occurrence && at < 0) occurrence.reason = `INSERT without ${DISTRIBUTION_COLUMN}`;
    const source = stmt.selectStmt && 'SelectStmt' in stmt.selectStmt ? stmt.selectStmt.SelectStmt : undefined;
    if (source?.valuesLists) {
      const values = source.valuesLists.map((row) => ('List' in row ? row.List.items?.[at] : undefined));
      if (at >= 0 && values.every((v) => v !== undefined && isValueNode(v)))
        level.equalities.push([columnOf(target, DISTRIBUTION_COLUMN), VALUE]);
      this.expressions(source.valuesLists, scope, level);
    } else if (source) {
      const outputs = this.select(source, scope, level);
      const produced = at >= 0 && outputs?.every((o) => !o.star) ? outputs[at]?.term : undefined;
      if (produced) level.equalities.push([columnOf(target, DISTRIBUTION_COLUMN), produced]);
    }
    const written: Scope = { relations: [target], ctes: new Map(), parent: scope };
    this.onConflict(stmt.onConflictClause, target, written, level);
    this.expressions(stmt.returningClause, written, level);
    return this.outputs(stmt.returningClause?.exprs, written);
  }

  update(stmt: UpdateStmt, outer: Scope, level: Level): Output[] {
    const scope: Scope = { relations: [], ctes: new Map(), parent: outer };
    this.with(stmt.withClause, scope);
    this.table(stmt.relation!, scope, level, false);
    for (const item of stmt.fromClause ?? []) this.fromItem(item, scope, level);
    this.conjuncts(stmt.whereClause, scope, level);
    for (const part of [stmt.targetList, stmt.whereClause, stmt.returningClause]) this.expressions(part, scope, level);
    return this.outputs(stmt.returningClause?.exprs, scope);
  }

  delete(stmt: DeleteStmt, outer: Scope, level: Level): Output[] {
    const scope: Scope = { relations: [], ctes: new Map(), parent: outer };
    this.with(stmt.withClause, scope);
    this.table(stmt.relation!, scope, level, false);
    for (const item of stmt.usingClause ?? []) this.fromItem(item, scope, level);
    this.conjuncts(stmt.whereClause, scope, level);
    for (const part of [stmt.whereClause, stmt.returningClause]) this.expressions(part, scope, level);
    return this.outputs(stmt.returningClause?.exprs, scope);
  }

  /** Each CTE's body in a level of its own; a reference to it sees which of its columns the body binds. */
  private with(clause: WithClause | undefined, scope: Scope): void {
    for (const node of clause?.ctes ?? []) {
      if (!('CommonTableExpr' in node)) continue;
      const { ctename = '', ctequery, aliascolnames } = node.CommonTableExpr;
      // A body sees the CTEs before it (and itself, when recursive), and binds nothing of the query that names it.
      const level = new Level();
      const cte: Cte = { outputs: [], level };
      scope.ctes.set(ctename, cte);
      const outputs = ctequery && this.statement(ctequery, scope, level);
      const renamed = aliascolnames?.map((c) => sval(c) ?? '');
      if (renamed) cte.outputs = renamed.map((name, i) => ({ name, term: outputs?.[i]?.term }));
      else if (outputs) cte.outputs = outputs;
      if (renamed || outputs?.every((o) => o.name)) cte.columns = new Set(cte.outputs.map((o) => o.name ?? ''));
    }
  }

  private onConflict(clause: OnConflictClause | undefined, target: Relation, scope: Scope, level: Level): void {
    if (!clause) return;
    const names = (clause.infer?.indexElems ?? []).map((e) => ('IndexElem' in e ? (e.IndexElem.name ?? '(expr)') : ''));
    if (target.distributed && names.length > 0 && !names.includes(DISTRIBUTION_COLUMN))
      this.problems.push({
        table: relationLabel(target),
        reason: `ON CONFLICT (${names.join(', ')}): a distributed table's unique key must include ${DISTRIBUTION_COLUMN}`,
      });
    const excluded: Relation = { id: this.nextId++, name: 'excluded', distributed: false };
    const inner: Scope = { ...scope, relations: [target, excluded] };
    this.expressions(clause.targetList, inner, level);
    this.expressions(clause.whereClause, inner, level);
  }

  // --- relations

  private fromItem(item: Node, scope: Scope, level: Level): void {
    if ('RangeVar' in item) this.table(item.RangeVar, scope, level, true);
    else if ('JoinExpr' in item) {
      const join = item.JoinExpr;
      const before = scope.relations.length;
      if (join.larg) this.fromItem(join.larg, scope, level);
      const middle = scope.relations.length;
      if (join.rarg) this.fromItem(join.rarg, scope, level);
      for (const name of (join.usingClause ?? []).map((n) => sval(n) ?? '')) {
        const [left, right] = [scope.relations.slice(before, middle), scope.relations.slice(middle)].map((side) =>
          this.bare(name, side),
        );
        if (left && right && left !== NOWHERE && right !== NOWHERE) level.equalities.push([left, right]);
      }
      this.conjuncts(join.quals, scope, level);
      this.expressions(join.quals, scope, level);
    } else if ('RangeSubselect' in item) this.subselect(item.RangeSubselect, scope, level);
    else if ('RangeFunction' in item) {
      const { alias, functions } = item.RangeFunction;
      const name = alias?.aliasname ?? '';
      const named = alias?.colnames?.map((c) => sval(c) ?? '');
      const columns = new Set(named ?? (functions?.length === 1 && name ? [name] : []));
      scope.relations.push({ id: this.nextId++, name, distributed: false, columns });
      this.expressions(functions, scope, level);
    }
  }

  /**
   * A subquery in FROM. One Postgres pulls up or pushes the outer query's conditions into shares this level, its columns
   * tied to its body's both ways; one with a LIMIT, OFFSET, window or set operation gets a level of its own, whose bound
   * columns bind the outer query's references (as a CTE's); a LATERAL one a level of its own that sees this one's.
   */
  private subselect(
    { lateral, subquery, alias }: { lateral?: boolean; subquery?: Node; alias?: { aliasname?: string } },
    scope: Scope,
    level: Level,
  ): void {
    const rel: Relation = { id: this.nextId++, name: alias?.aliasname ?? '', distributed: false };
    const body = subquery && 'SelectStmt' in subquery ? subquery.SelectStmt : undefined;
    const pulledUp = !lateral && body !== undefined && isPulledUp(body);
    // Not LATERAL: it sees the CTEs and the queries around this one, not this one's other relations.
    const inner: Scope = lateral ? scope : { relations: [], ctes: scope.ctes, parent: scope.parent };
    const own = pulledUp ? level : new Level(lateral ? level : level.parent);
    const outputs = body && this.select(body, inner, own);
    if (outputs?.every((o) => o.name)) rel.columns = new Set(outputs.map((o) => o.name ?? ''));
    for (const { name, term } of outputs ?? []) {
      if (!name || !term) continue;
      if (pulledUp) level.equalities.push([columnOf(rel, name), term]);
      else if (!lateral) level.derived.push({ term: columnOf(rel, name), from: own, source: term });
    }
    scope.relations.push(rel);
  }

  /** A table named in FROM (or the target of a write): distributed ones are occurrences to check. */
  private table(rv: RangeVar, scope: Scope, level: Level, read: boolean): Relation {
    const name = rv.alias?.aliasname ?? rv.relname ?? '';
    const cte = !rv.schemaname && read ? this.cte(rv.relname ?? '', scope) : undefined;
    if (cte) {
      const rel: Relation = { id: this.nextId++, name, distributed: false, columns: cte.columns };
      for (const { name: column, term: source } of cte.outputs)
        if (column && source) level.derived.push({ term: columnOf(rel, column), from: cte.level, source });
      scope.relations.push(rel);
      return rel;
    }
    const table = this.qualified(rv);
    const rel: Relation = {
      id: this.nextId++,
      name,
      table,
      distributed: this.placement.get(table) === 'distributed',
      columns: this.rules.columns?.get(table),
    };
    scope.relations.push(rel);
    if (rel.distributed) this.occurrences.push({ relation: rel, level });
    return rel;
  }

  private qualified(rv: RangeVar): string {
    return `${rv.schemaname ?? this.searchPath}.${rv.relname ?? ''}`;
  }

  private cte(name: string, scope: Scope | undefined): Cte | undefined {
    for (let s = scope; s; s = s.parent) {
      const cte = s.ctes.get(name);
      if (cte) return cte;
    }
    return undefined;
  }

  /** A query's output columns in order (a `*` stands for every column known of its relations). */
  private outputs(targets: Node[] | undefined, scope: Scope): Output[] {
    return (targets ?? []).flatMap((node): Output[] => {
      if (!('ResTarget' in node)) return [{}];
      const { name, val } = node.ResTarget;
      const ref = unwrap(val);
      if (ref && 'ColumnRef' in ref && ref.ColumnRef.fields?.some((f) => 'A_Star' in f))
        return this.star(ref.ColumnRef, scope);
      const column = name ?? (ref && 'ColumnRef' in ref ? sval(ref.ColumnRef.fields?.at(-1)) : undefined);
      return [{ name: column, term: ref && this.term(ref, scope) }];
    });
  }

  private star(ref: ColumnRef, scope: Scope): Output[] {
    const qualifier = ref.fields && ref.fields.length > 1 ? sval(ref.fields.at(-2)) : undefined;
    const relations = qualifier ? scope.relations.filter((r) => r.name === qualifier) : scope.relations;
    if (relations.some((r) => r.columns === undefined)) return [{ star: true }];
    return relations.flatMap((rel) => [...rel.columns!].map((c) => ({ name: c, term: columnOf(rel, c), star: true })));
  }

  // --- predicates

  /** The top-level ANDs of a WHERE or JOIN ON: each `=` between columns, parameters and constants an equality. */
  private conjuncts(expr: Node | undefined, scope: Scope, level: Level): void {
    if (!expr) return;
    if ('BoolExpr' in expr) {
      if (expr.BoolExpr.boolop === 'AND_EXPR')
        for (const arg of expr.BoolExpr.args ?? []) this.conjuncts(arg, scope, level);
      return;
    }
    if ('A_Expr' in expr) this.comparison(expr.A_Expr, scope, level);
  }

  private comparison(e: A_Expr, scope: Scope, level: Level): void {
    if (e.name?.length !== 1 || sval(e.name[0]) !== '=') return;
    const left = unwrap(e.lexpr);
    const right = unwrap(e.rexpr);
    if (e.kind === 'AEXPR_OP') {
      if (left && right && 'RowExpr' in left && 'RowExpr' in right) {
        const [l = [], r = []] = [left.RowExpr.args, right.RowExpr.args];
        l.forEach((a, i) => this.equate(a, r[i], scope, level));
      } else this.equate(left, right, scope, level);
    } else if (e.kind === 'AEXPR_IN' && right && 'List' in right) {
      const items = right.List.items ?? [];
      if (items.length === 1) this.equate(left, items[0], scope, level);
      else this.spans(left, scope);
    } else if (e.kind === 'AEXPR_OP_ANY') this.spans(left, scope);
  }

  private equate(a: Node | undefined, b: Node | undefined, scope: Scope, level: Level): void {
    const side = (n: Node) => this.term(n, scope) ?? this.cteValue(n, scope, level);
    const [ta, tb] = [a && side(a), b && side(b)];
    if (ta && tb) level.equalities.push([ta, tb]);
  }

  /**
   * `(SELECT column FROM cte)`: the CTE's column, as a reference to it in FROM would be (a value when the CTE's body
   * binds it to one, as a join to the CTE on it would).
   */
  private cteValue(node: Node, scope: Scope, level: Level): string | undefined {
    const n = unwrap(node);
    if (!n || !('SubLink' in n) || n.SubLink.subLinkType !== 'EXPR_SUBLINK') return undefined;
    const query = n.SubLink.subselect;
    const body = query && 'SelectStmt' in query ? query.SelectStmt : undefined;
    const from = body?.fromClause?.[0];
    const target = body?.targetList?.[0];
    if (body?.fromClause?.length !== 1 || body.targetList?.length !== 1 || body.whereClause) return undefined;
    if (!from || !('RangeVar' in from) || from.RangeVar.schemaname || !target || !('ResTarget' in target))
      return undefined;
    const ref = unwrap(target.ResTarget.val);
    const column = ref && 'ColumnRef' in ref ? sval(ref.ColumnRef.fields?.at(-1)) : undefined;
    const cte = this.cte(from.RangeVar.relname ?? '', scope);
    const source = cte?.outputs.find((o) => o.name === column)?.term;
    if (!cte || !column || !source) return undefined;
    const rel: Relation = {
      id: this.nextId++,
      name: from.RangeVar.relname ?? '',
      distributed: false,
      columns: cte.columns,
    };
    level.derived.push({ term: columnOf(rel, column), from: cte.level, source });
    return columnOf(rel, column);
  }

  private spans(expr: Node | undefined, scope: Scope): void {
    const term = expr && this.term(expr, scope);
    if (term) this.anyOf.add(term);
  }

  /** A column (as `relation id.column`), a parameter (`$n`) or a constant; undefined for anything else. */
  private term(node: Node, scope: Scope): string | undefined {
    const n = unwrap(node);
    if (!n) return undefined;
    if ('ParamRef' in n) return `$${n.ParamRef.number}`;
    if ('A_Const' in n) return n.A_Const.isnull ? undefined : `const:${this.consts++}`;
    if (!('ColumnRef' in n)) return undefined;
    const fields = (n.ColumnRef.fields ?? []).map((f) => sval(f));
    if (fields.some((f) => f === undefined)) return undefined;
    const column = fields.at(-1)!;
    if (fields.length === 1) return this.bareInScope(column, scope);
    const qualifier = fields.at(-2)!;
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const rel = s.relations.findLast((r) => r.name === qualifier);
      if (rel) return columnOf(rel, column);
    }
    return undefined;
  }

  /** A bare column: in the innermost scope with a relation that may have it, that relation if it is the only one. */
  private bareInScope(column: string, scope: Scope): string | undefined {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const found = this.bare(column, s.relations);
      if (found !== NOWHERE) return found;
    }
    return undefined;
  }

  /** The one relation that may have `column` (its columns known to hold it, or unknown); NOWHERE when none may. */
  private bare(column: string, relations: Relation[]): string | undefined {
    const may = relations.filter((r) => r.columns === undefined || r.columns.has(column));
    if (may.length === 0) return NOWHERE;
    return may.length === 1 ? columnOf(may[0]!, column) : undefined;
  }

  /** Finds the subqueries in an expression (SubLink) and walks each in a level of its own, correlated to `scope`. */
  private expressions(node: unknown, scope: Scope, level: Level): void {
    if (Array.isArray(node)) for (const item of node) this.expressions(item, scope, level);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'SubLink') {
          const { subselect, testexpr } = value as { subselect?: Node; testexpr?: Node };
          this.expressions(testexpr, scope, level);
          if (subselect && 'SelectStmt' in subselect) this.select(subselect.SelectStmt, scope, new Level(level));
        } else this.expressions(value, scope, level);
      }
    }
  }
}
