/* The search of search.py in C: the same model (fast.py), the same epochs, reachability games,
 * path-dependent search, tentative wins and table rules, the same move order and node count.
 *
 * A position is packed into 128 bits (see pack): per card its queue length and the owners of
 * its flags, the pending marks of the cursor card (the only card that has any), the index of
 * the RUNNING flag (only on a ForkBomb card's turn), cursor, mover, lives and supplies. Keys
 * are equal exactly when the model's position tuples are.
 *
 * The search recurses as deep as the longest line of reversible turns, so it runs on a thread
 * with a large (lazily committed) stack, and keeps the move lists in a heap arena. The calling
 * thread releases the GIL and wakes up now and then for the progress callback and signals. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define NMAX 6    /* cards: 5 bits of queue length each in the low word */
#define FMAX 31   /* flags on the cards plus supplies: owners fit 31 bits */
#define VMAX 31   /* lives and supplies: 5 bits each */
#define INF (1 << 30)
#define NONE INT32_MIN

enum { ADD, MOVE, REMOVE, BUG, FORK };
enum { REV, IRR, END };
enum { OK, TIMEOUT, NOMEM, ABORTED };

#define PENDING 1
#define MOVED 2
#define RUNNING 4
#define OWNER_SHIFT 3

typedef struct { uint64_t lo, hi; } Key;

typedef struct {
    uint32_t own[NMAX]; /* bit k: the owner of the k-th flag of the queue */
    uint8_t len[NMAX];
    uint32_t pend;      /* pending marks of the cursor card */
    int8_t run;         /* index of the RUNNING flag on the cursor card, or -1 */
    uint8_t cursor, mover;
    int8_t lives[2], supply[2];
} Pos;

typedef struct { Key key; int8_t tag, win, score, pending; } Move;

/* Tables: open addressing on keys; bit 62 of hi marks a used slot, bit 63 holds the value. */
#define USED (1ULL << 62)
#define VAL (1ULL << 63)
typedef struct { Key *e; size_t cap, n; } Table;

typedef struct { Key k; int32_t idx; int32_t used; } PEnt;
typedef struct { PEnt *e; size_t cap, n; } PathMap;

typedef struct { size_t start; int low; } Seg;

/* The ordered turns of recently searched positions (Solver._moves_cache): a direct-mapped cache,
 * since repetitions and re-searches visit the same positions again and again. */
#define CSLOTS (1 << 16)
typedef struct { Key key; Move *mv; uint32_t n, cap; int used; } CSlot;

typedef struct {
    PyObject_HEAD
    int n;
    int kinds[NMAX];
    PyObject *timeout_exc;
    Table table, g[2];
    Table tmp; /* the table of an epoch entered with a history (one value() call) */
    PathMap path;
    Key *tent; size_t ntent, ctent;
    Seg *segs; size_t nsegs, csegs;
    Move *mv; size_t nmv, cmv;
    uint32_t *dstamp; uint16_t *didx; uint32_t stamp; /* dedup set of one move list */
    CSlot *cache;
    uint64_t nodes, shown_nodes;
    uint64_t max_nodes; /* 0: no budget; else a Timeout once past it (deterministic) */
    double deadline;
    int abort_flag;
    int err;
    jmp_buf jb;
    /* one value() call on the search thread */
    Key job_key; Key *job_hist; size_t job_nhist; int job_result;
    int done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} Core;

static void fail(Core *S, int err) { S->err = err; longjmp(S->jb, 1); }

/* ------------------------------------------------------------------ hashing and tables */

static inline uint64_t mix(Key k) {
    uint64_t h = k.lo ^ ((k.hi & ~(USED | VAL)) * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline int keq(Key a, Key b) { return a.lo == b.lo && a.hi == b.hi; }

static int tab_get(const Table *t, Key k) {
    if (!t->cap) return -1;
    size_t m = t->cap - 1, i = mix(k) & m;
    for (;;) {
        const Key *e = &t->e[i];
        if (!(e->hi & USED)) return -1;
        if (e->lo == k.lo && (e->hi & ~VAL) == (k.hi | USED)) return (e->hi & VAL) ? 1 : 0;
        i = (i + 1) & m;
    }
}

static int tab_grow(Table *t) {
    size_t cap = t->cap ? t->cap * 2 : 1 << 16;
    Key *e = calloc(cap, sizeof(Key));
    if (!e) return -1;
    for (size_t j = 0; j < t->cap; j++) {
        Key x = t->e[j];
        if (!(x.hi & USED)) continue;
        size_t i = mix(x) & (cap - 1);
        while (e[i].hi & USED) i = (i + 1) & (cap - 1);
        e[i] = x;
    }
    free(t->e);
    t->e = e;
    t->cap = cap;
    return 0;
}

static void tab_put(Core *S, Table *t, Key k, int v) {
    if ((t->n + 1) * 4 > t->cap * 3 && tab_grow(t)) fail(S, NOMEM);
    size_t m = t->cap - 1, i = mix(k) & m;
    uint64_t hi = k.hi | USED | (v ? VAL : 0);
    for (;;) {
        Key *e = &t->e[i];
        if (!(e->hi & USED)) { e->lo = k.lo; e->hi = hi; t->n++; return; }
        if (e->lo == k.lo && (e->hi & ~VAL) == (k.hi | USED)) { e->hi = hi; return; }
        i = (i + 1) & m;
    }
}

static void tab_free(Table *t) { free(t->e); t->e = NULL; t->cap = t->n = 0; }

/* The path of the current epochs: key -> index. Epochs nested on the stack never share a key
 * (each irreversible turn lowers lives, supplies or, failing both, the flag count), so one map
 * serves them all. Linear probing with backward-shift deletion. */
static int32_t path_get(const PathMap *p, Key k) {
    size_t m = p->cap - 1, i = mix(k) & m;
    for (;;) {
        const PEnt *e = &p->e[i];
        if (!e->used) return NONE;
        if (keq(e->k, k)) return e->idx;
        i = (i + 1) & m;
    }
}

static void path_put(Core *S, Key k, int32_t idx) {
    PathMap *p = &S->path;
    if ((p->n + 1) * 2 > p->cap) {
        size_t cap = p->cap * 2;
        PEnt *e = calloc(cap, sizeof(PEnt));
        if (!e) fail(S, NOMEM);
        for (size_t j = 0; j < p->cap; j++) {
            if (!p->e[j].used) continue;
            size_t i = mix(p->e[j].k) & (cap - 1);
            while (e[i].used) i = (i + 1) & (cap - 1);
            e[i] = p->e[j];
        }
        free(p->e);
        p->e = e;
        p->cap = cap;
    }
    size_t m = p->cap - 1, i = mix(k) & m;
    while (p->e[i].used) {
        if (keq(p->e[i].k, k)) { p->e[i].idx = idx; return; }
        i = (i + 1) & m;
    }
    p->e[i].k = k; p->e[i].idx = idx; p->e[i].used = 1;
    p->n++;
}

static void path_del(PathMap *p, Key k) {
    size_t m = p->cap - 1, i = mix(k) & m;
    while (!keq(p->e[i].k, k) || !p->e[i].used) i = (i + 1) & m;
    size_t j = i;
    for (;;) {
        j = (j + 1) & m;
        if (!p->e[j].used) break;
        size_t h = mix(p->e[j].k) & m;
        /* move j back into the hole at i unless its home lies cyclically in (i, j] */
        if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
            p->e[i] = p->e[j];
            i = j;
        }
    }
    p->e[i].used = 0;
    p->n--;
}

static void path_clear(PathMap *p) { memset(p->e, 0, p->cap * sizeof(PEnt)); p->n = 0; }

/* ------------------------------------------------------------------ positions */

static Key pack(const Core *S, const Pos *p) {
    uint64_t lo = 0;
    int shift = 0;
    for (int c = 0; c < S->n; c++) {
        lo |= (uint64_t)p->own[c] << shift;
        shift += p->len[c];
        lo |= (uint64_t)p->len[c] << (32 + 5 * c);
    }
    uint64_t hi = (uint64_t)p->pend | (uint64_t)(p->run + 1) << 32 | (uint64_t)p->cursor << 38 |
                  (uint64_t)p->mover << 41 | (uint64_t)p->lives[0] << 42 |
                  (uint64_t)p->lives[1] << 47 | (uint64_t)p->supply[0] << 52 |
                  (uint64_t)p->supply[1] << 57;
    Key k = {lo, hi};
    return k;
}

static void unpack(const Core *S, Key k, Pos *p) {
    int shift = 0;
    for (int c = 0; c < S->n; c++) {
        int len = (k.lo >> (32 + 5 * c)) & 31;
        p->len[c] = len;
        p->own[c] = (uint32_t)(k.lo >> shift) & (uint32_t)((1ULL << len) - 1);
        shift += len;
    }
    p->pend = (uint32_t)k.hi;
    p->run = (int)((k.hi >> 32) & 63) - 1;
    p->cursor = (k.hi >> 38) & 7;
    p->mover = (k.hi >> 41) & 1;
    p->lives[0] = (k.hi >> 42) & 31;
    p->lives[1] = (k.hi >> 47) & 31;
    p->supply[0] = (k.hi >> 52) & 31;
    p->supply[1] = (k.hi >> 57) & 31;
}

static inline uint32_t rmbit(uint32_t m, int k) {
    return (m & ((1u << k) - 1)) | ((m >> (k + 1)) << k);
}

static inline void remove_flag(Pos *p, int c, int k) {
    p->own[c] = rmbit(p->own[c], k);
    p->len[c]--;
    if (c == p->cursor) p->pend = rmbit(p->pend, k);
}

static inline void append_flag(Pos *p, int c, int owner) {
    p->own[c] |= (uint32_t)owner << p->len[c];
    p->len[c]++;
}

static void count_flags(const Core *S, const Pos *p, int flags[2]) {
    int ones = 0, all = 0;
    for (int c = 0; c < S->n; c++) {
        ones += __builtin_popcount(p->own[c]);
        all += p->len[c];
    }
    flags[0] = all - ones;
    flags[1] = ones;
}

/* fast.Model._next_turn: the next pending flag of the cursor card gets the turn, or the cursor
 * moves on to the next card with flags and arrives there (C1). */
static void next_turn(const Core *S, Pos *p) {
    int c = p->cursor, k;
    if (p->pend) {
        k = __builtin_ctz(p->pend);
    } else {
        for (int i = 0; i < S->n; i++) {
            c = (c + 1) % S->n;
            if (p->len[c]) break;
        }
        p->cursor = c;
        p->pend = (uint32_t)((1ULL << p->len[c]) - 1);
        k = 0;
    }
    p->pend &= ~(1u << k);
    p->run = S->kinds[c] == FORK ? k : -1;
    p->mover = (p->own[c] >> k) & 1;
}

static int tiebreak(const Core *S, const Pos *p) {
    if (p->lives[0] != p->lives[1]) return p->lives[0] > p->lives[1] ? 0 : 1;
    int flags[2], heads[2] = {0, 0};
    count_flags(S, p, flags);
    if (flags[0] != flags[1]) return flags[0] > flags[1] ? 0 : 1;
    for (int c = 0; c < S->n; c++)
        if (p->len[c]) heads[p->own[c] & 1]++;
    if (heads[0] != heads[1]) return heads[0] > heads[1] ? 0 : 1;
    for (int i = 0; i < S->n; i++) {
        int c = (p->cursor + i) % S->n;
        if (p->len[c]) return p->own[c] & 1;
    }
    return 0;
}

static int fixed_tiebreak(const Core *S, const Pos *p) {
    if (p->lives[0] != p->lives[1]) return p->lives[0] > p->lives[1] ? 0 : 1;
    int flags[2];
    count_flags(S, p, flags);
    if (flags[0] != flags[1]) return flags[0] > flags[1] ? 0 : 1;
    return -1;
}

/* ------------------------------------------------------------------ moves (Model.moves without
 * self-damage, and Solver._ordered: the same turns in the same order, equal results once) */

#define DSLOTS 1024

static inline int mine(const Core *S, const Pos *p, int seat) {
    int f[2];
    count_flags(S, p, f);
    return f[seat];
}

static void reserve(Core *S, size_t more) {
    if (S->nmv + more <= S->cmv) return;
    size_t c = S->cmv;
    while (S->nmv + more > c) c *= 2;
    Move *mv = realloc(S->mv, c * sizeof(Move));
    if (!mv) fail(S, NOMEM);
    S->mv = mv;
    S->cmv = c;
}

static void add(Core *S, size_t base, const Pos *parent, int tag, int win, const Pos *r) {
    Move m;
    m.tag = tag;
    m.pending = 0;
    int mover = parent->mover, opp = 1 - mover;
    if (tag == END) {
        for (size_t i = base; i < S->nmv; i++)
            if (S->mv[i].tag == END && S->mv[i].win == win) return;
        m.key.lo = m.key.hi = 0;
        m.win = win;
        m.score = win == mover ? 0 : 9;
    } else {
        m.key = pack(S, r);
        m.win = -1;
        size_t i = mix(m.key) & (DSLOTS - 1);
        while (S->dstamp[i] == S->stamp) {
            if (keq(S->mv[base + S->didx[i]].key, m.key)) return;
            i = (i + 1) & (DSLOTS - 1);
        }
        S->dstamp[i] = S->stamp;
        S->didx[i] = (uint16_t)(S->nmv - base);
        if (tag == IRR) {
            if (r->lives[opp] < parent->lives[opp])
                m.score = r->lives[mover] == parent->lives[mover] ? 1 : 2;
            else if (r->lives[mover] < parent->lives[mover])
                m.score = 6; /* hurting oneself: rarely right */
            else if (r->supply[0] != parent->supply[0] || r->supply[1] != parent->supply[1])
                m.score = 3;
            else /* a flag removed: the opponent's first */
                m.score = mine(S, r, mover) == mine(S, parent, mover) ? 2 : 5;
        } else {
            m.score = 4;
        }
    }
    reserve(S, 1);
    S->mv[S->nmv++] = m;
}

/* fast.Model._after_command; flags: the flag counts after an irreversible command, or NULL */
static void after(Core *S, size_t base, const Pos *parent, Pos *q, const int *flags) {
    if (flags) {
        int out0 = q->lives[0] <= 0 || !flags[0];
        int out1 = q->lives[1] <= 0 || !flags[1];
        if (out0 || out1) {
            add(S, base, parent, END, out0 && out1 ? parent->mover : (out0 ? 1 : 0), NULL);
            return;
        }
        next_turn(S, q);
        add(S, base, parent, IRR, -1, q);
        return;
    }
    next_turn(S, q);
    add(S, base, parent, REV, -1, q);
}

/* Appends the ordered turns of p (key pk) to the arena; returns their number. */
static size_t gen(Core *S, const Pos *p, Key pk) {
    size_t base = S->nmv;
    CSlot *slot = &S->cache[mix(pk) & (CSLOTS - 1)];
    if (slot->used && keq(slot->key, pk)) {
        reserve(S, slot->n);
        memcpy(S->mv + base, slot->mv, slot->n * sizeof(Move));
        S->nmv += slot->n;
        return slot->n;
    }
    int n = S->n, cursor = p->cursor, mover = p->mover;
    int kind = S->kinds[cursor];
    Pos q;
    int flags[2], left[2];
    if (++S->stamp == 0) {
        memset(S->dstamp, 0, DSLOTS * sizeof(uint32_t));
        S->stamp = 1;
    }
    if (kind == FORK) { /* the turn flag carries RUNNING: pass clears it, run removes it */
        int k = p->run;
        q = *p; q.run = -1;
        after(S, base, p, &q, NULL);
        count_flags(S, p, flags);
        flags[mover]--;
        /* aimed at the opponent only: aiming at oneself is dominated (fast.Model.moves) */
        q = *p; q.run = -1;
        q.lives[1 - mover] -= 2;
        remove_flag(&q, cursor, k);
        after(S, base, p, &q, flags);
    } else {
        q = *p;
        after(S, base, p, &q, NULL);
        if (kind == MOVE) {
            if (n > 1)
                for (int c = 0; c < n; c++)
                    for (int k = 0; k < p->len[c]; k++) {
                        int owner = (p->own[c] >> k) & 1;
                        for (int d = 0; d < n; d++) {
                            if (d == c) continue;
                            q = *p;
                            remove_flag(&q, c, k);
                            append_flag(&q, d, owner);
                            after(S, base, p, &q, NULL);
                        }
                    }
        } else {
            count_flags(S, p, flags);
            if (kind == BUG) { /* at the opponent only, as for ForkBomb */
                q = *p;
                q.lives[1 - mover] -= 1;
                after(S, base, p, &q, flags);
            } else if (kind == ADD) {
                if (p->supply[mover] && n > 1) {
                    flags[mover]++;
                    for (int c = 0; c < n; c++) {
                        if (c == cursor) continue;
                        q = *p;
                        q.supply[mover]--;
                        append_flag(&q, c, mover);
                        after(S, base, p, &q, flags);
                    }
                }
            } else { /* REMOVE */
                for (int c = 0; c < n; c++)
                    for (int k = 0; k < p->len[c]; k++) {
                        left[0] = flags[0]; left[1] = flags[1];
                        left[(p->own[c] >> k) & 1]--;
                        q = *p;
                        remove_flag(&q, c, k);
                        after(S, base, p, &q, left);
                    }
            }
        }
    }
    /* stable counting sort by score */
    size_t cnt = S->nmv - base;
    if (cnt > 1) {
        Move tmp[256];
        Move *buf = cnt <= 256 ? tmp : malloc(cnt * sizeof(Move));
        if (!buf) fail(S, NOMEM);
        size_t w = 0;
        for (int s = 0; s <= 9; s++)
            for (size_t i = 0; i < cnt; i++)
                if (S->mv[base + i].score == s) buf[w++] = S->mv[base + i];
        memcpy(S->mv + base, buf, cnt * sizeof(Move));
        if (buf != tmp) free(buf);
    }
    if (slot->cap < cnt) {
        Move *mv = realloc(slot->mv, cnt * sizeof(Move));
        if (!mv) fail(S, NOMEM);
        slot->mv = mv;
        slot->cap = (uint32_t)cnt;
    }
    memcpy(slot->mv, S->mv + base, cnt * sizeof(Move));
    slot->n = (uint32_t)cnt;
    slot->key = pk;
    slot->used = 1;
    return cnt;
}

/* ------------------------------------------------------------------ search (search.Solver) */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline void count_node(Core *S) {
    if (!(++S->nodes & 0x3FFF)) {
        __atomic_store_n(&S->shown_nodes, S->nodes, __ATOMIC_RELAXED);
        if (S->deadline >= 0 && now() > S->deadline) fail(S, TIMEOUT);
        if (S->max_nodes && S->nodes > S->max_nodes) fail(S, TIMEOUT);
        if (__atomic_load_n(&S->abort_flag, __ATOMIC_RELAXED)) fail(S, ABORTED);
    }
}

static void push_tent(Core *S, Key k) {
    if (S->ntent == S->ctent) {
        size_t c = S->ctent * 2;
        Key *t = realloc(S->tent, c * sizeof(Key));
        if (!t) fail(S, NOMEM);
        S->tent = t;
        S->ctent = c;
    }
    S->tent[S->ntent++] = k;
}

static void push_seg(Core *S, size_t start, int low) {
    if (S->nsegs == S->csegs) {
        size_t c = S->csegs * 2;
        Seg *t = realloc(S->segs, c * sizeof(Seg));
        if (!t) fail(S, NOMEM);
        S->segs = t;
        S->csegs = c;
    }
    S->segs[S->nsegs].start = start;
    S->segs[S->nsegs].low = low;
    S->nsegs++;
}

static int epoch(Core *S, Key pk);

/* Solver._reach */
static int reach(Core *S, Key pk, int d, int t, Table *table, int *hit_out) {
    count_node(S);
    int v = tab_get(table, pk);
    if (v >= 0) { *hit_out = INF; return v; }
    Pos p;
    unpack(S, pk, &p);
    int mover = p.mover;
    size_t start = S->ntent;
    int result = -1, hit = INF;
    size_t base = S->nmv, cnt = gen(S, &p, pk);
    for (size_t i = 0; i < cnt; i++) {
        Move *m = &S->mv[base + i];
        if (m->tag == END) {
            if (m->win == mover) { result = mover; hit = INF; break; }
            continue;
        }
        const Table *known = &S->table; /* an irreversible turn: a new epoch's table */
        if (m->tag == REV) {
            int32_t idx = path_get(&S->path, m->key);
            if (idx != NONE) {
                if (t == mover) { result = mover; hit = idx; break; }
                if (idx < hit) hit = idx;
                continue;
            }
            known = table;
        }
        int w = tab_get(known, m->key);
        if (w >= 0) {
            if (w == mover) { result = mover; hit = INF; break; }
            continue;
        }
        m->pending = 1;
    }
    if (result < 0) {
        for (size_t i = 0; i < cnt; i++) {
            if (!S->mv[base + i].pending) continue;
            Key ck = S->mv[base + i].key;
            int w, h;
            if (S->mv[base + i].tag == IRR) {
                w = epoch(S, ck);
                h = INF;
            } else {
                path_put(S, ck, d + 1);
                w = reach(S, ck, d + 1, t, table, &h);
                path_del(&S->path, ck);
            }
            if (w == mover) { result = mover; hit = h; break; }
            if (h < hit) hit = h;
        }
        if (result < 0) result = 1 - mover;
    }
    S->nmv = base;
    if (result != t) { /* a win of the other player: true whatever the path */
        tab_put(S, table, pk, result);
        while (S->nsegs && S->segs[S->nsegs - 1].start >= start) S->nsegs--;
        S->ntent = start;
        *hit_out = INF;
        return result;
    }
    if (hit >= d) { /* settled: so is every tentative win that relied on this position only */
        tab_put(S, table, pk, t);
        size_t j = S->nsegs;
        while (j > 0 && S->segs[j - 1].start >= start) j--;
        size_t w = start;
        int low = INF;
        for (size_t i = j; i < S->nsegs; i++) {
            size_t s0 = S->segs[i].start;
            size_t end = i + 1 < S->nsegs ? S->segs[i + 1].start : S->ntent;
            if (S->segs[i].low >= d) {
                for (size_t x = s0; x < end; x++) tab_put(S, table, S->tent[x], t);
            } else {
                memmove(S->tent + w, S->tent + s0, (end - s0) * sizeof(Key));
                w += end - s0;
                if (S->segs[i].low < low) low = S->segs[i].low;
            }
        }
        S->ntent = w;
        S->nsegs = j;
        if (S->ntent > start) push_seg(S, start, low); /* what is left, merged */
        *hit_out = INF;
        return t;
    }
    int low = hit;
    while (S->nsegs && S->segs[S->nsegs - 1].start >= start) {
        S->nsegs--;
        if (S->segs[S->nsegs].low < low) low = S->segs[S->nsegs].low;
    }
    push_seg(S, start, low);
    push_tent(S, pk);
    *hit_out = hit;
    return t;
}

/* Solver._free; lookup: the table may answer (the first position of an epoch, no history) */
static int free_search(Core *S, Key pk, int d, int lookup, int *hit_out) {
    count_node(S);
    Table *table = &S->table;
    if (lookup) {
        int v = tab_get(table, pk);
        if (v >= 0) { *hit_out = INF; return v; }
    }
    Pos p, r;
    unpack(S, pk, &p);
    int mover = p.mover, hit = INF;
    size_t base = S->nmv, cnt = gen(S, &p, pk);
    for (size_t i = 0; i < cnt; i++) {
        Move *m = &S->mv[base + i];
        if (m->tag == END) {
            if (m->win == mover) {
                tab_put(S, table, pk, mover);
                S->nmv = base;
                *hit_out = INF;
                return mover;
            }
            continue;
        }
        if (m->tag == REV) {
            int32_t idx = path_get(&S->path, m->key);
            if (idx != NONE) {
                unpack(S, m->key, &r);
                if (tiebreak(S, &r) == mover) {
                    if (idx >= d) tab_put(S, table, pk, mover);
                    S->nmv = base;
                    *hit_out = idx;
                    return mover;
                }
                if (idx < hit) hit = idx;
                continue;
            }
            m->pending = 1;
        } else {
            int w = tab_get(table, m->key);
            if (w >= 0) {
                if (w == mover) {
                    tab_put(S, table, pk, mover);
                    S->nmv = base;
                    *hit_out = INF;
                    return mover;
                }
                continue;
            }
            m->pending = 1;
        }
    }
    for (size_t i = 0; i < cnt; i++) {
        if (!S->mv[base + i].pending) continue;
        Key ck = S->mv[base + i].key;
        int w, h;
        if (S->mv[base + i].tag == IRR) {
            w = epoch(S, ck);
            h = INF;
        } else {
            path_put(S, ck, d + 1);
            w = free_search(S, ck, d + 1, 0, &h);
            path_del(&S->path, ck);
        }
        if (w == mover) {
            if (h >= d) tab_put(S, table, pk, mover);
            S->nmv = base;
            *hit_out = h;
            return mover;
        }
        if (h < hit) hit = h;
    }
    S->nmv = base;
    if (hit >= d) tab_put(S, table, pk, 1 - mover);
    *hit_out = hit;
    return 1 - mover;
}

/* Solver._search */
static int search(Core *S, Key pk, const Pos *p, int d, int lookup, int *hit) {
    int fixed = fixed_tiebreak(S, p);
    if (fixed < 0) return free_search(S, pk, d, lookup, hit);
    return reach(S, pk, d, fixed, &S->table, hit);
}

/* Solver._epoch */
static int epoch(Core *S, Key pk) {
    int v = tab_get(&S->table, pk);
    if (v >= 0) return v;
    Pos p;
    unpack(S, pk, &p);
    int h;
    if (fixed_tiebreak(S, &p) < 0) {
        for (int i = 0; i < 2; i++) {
            int pl = i == 0 ? p.mover : 1 - p.mover;
            path_put(S, pk, 0);
            int w = reach(S, pk, 0, 1 - pl, &S->g[1 - pl], &h);
            path_del(&S->path, pk);
            if (w == pl) {
                tab_put(S, &S->table, pk, pl);
                return pl;
            }
        }
    }
    path_put(S, pk, 0);
    int w = search(S, pk, &p, 0, 1, &h);
    path_del(&S->path, pk);
    return w;
}

/* Solver.value after the check of pos against its history */
static int top_value(Core *S) {
    Key pk = S->job_key;
    if (!S->job_nhist) return epoch(S, pk);
    for (size_t i = 0; i < S->job_nhist; i++) path_put(S, S->job_hist[i], -1);
    path_put(S, pk, 0);
    Pos p;
    unpack(S, pk, &p);
    int fixed = fixed_tiebreak(S, &p), h;
    if (fixed < 0) return free_search(S, pk, 0, 0, &h);
    /* the reachability values in the table assume an empty history: with one, this epoch's
     * positions get a table of their own */
    return reach(S, pk, 0, fixed, &S->tmp, &h);
}

static void *run_job(void *arg) {
    Core *S = arg;
    S->err = OK;
    if (setjmp(S->jb) == 0) S->job_result = top_value(S);
    else S->job_result = -1;
    pthread_mutex_lock(&S->mu);
    S->done = 1;
    pthread_cond_signal(&S->cv);
    pthread_mutex_unlock(&S->mu);
    return NULL;
}

/* ------------------------------------------------------------------ Python side */

/* A position tuple of fast.py (or a repetition key: queues, cursor, mover, with lives and
 * supplies taken from `like`) as a key; -1 with an exception if it does not fit. */
static int to_key(Core *S, PyObject *queues, PyObject *cursor_o, PyObject *mover_o,
                  const int lives[2], const int supply[2], Key *out) {
    Pos p;
    memset(&p, 0, sizeof p);
    p.run = -1;
    PyObject *qs = PySequence_Fast(queues, "queues must be a sequence");
    if (!qs) return -1;
    long cursor = PyLong_AsLong(cursor_o), mover = PyLong_AsLong(mover_o);
    if (PyErr_Occurred()) { Py_DECREF(qs); return -1; }
    if (PySequence_Fast_GET_SIZE(qs) != S->n || cursor < 0 || cursor >= S->n ||
        (mover != 0 && mover != 1)) {
        Py_DECREF(qs);
        PyErr_SetString(PyExc_ValueError, "position does not match the model");
        return -1;
    }
    p.cursor = (uint8_t)cursor;
    p.mover = (uint8_t)mover;
    int total = 0;
    for (int c = 0; c < S->n; c++) {
        PyObject *q = PySequence_Fast(PySequence_Fast_GET_ITEM(qs, c), "a queue must be a sequence");
        if (!q) { Py_DECREF(qs); return -1; }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(q);
        total += (int)len;
        if (total > FMAX) {
            Py_DECREF(q); Py_DECREF(qs);
            PyErr_SetString(PyExc_ValueError, "too many flags for the C search");
            return -1;
        }
        p.len[c] = (uint8_t)len;
        for (Py_ssize_t k = 0; k < len; k++) {
            long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(q, k));
            if (code == -1 && PyErr_Occurred()) { Py_DECREF(q); Py_DECREF(qs); return -1; }
            long owner = code >> OWNER_SHIFT;
            int bad = (owner != 0 && owner != 1) || (code & MOVED) ||
                      ((code & (PENDING | RUNNING)) && c != cursor) ||
                      ((code & RUNNING) && p.run >= 0);
            if (bad) {
                Py_DECREF(q); Py_DECREF(qs);
                PyErr_SetString(PyExc_ValueError, "not a turn position of the level-1 model");
                return -1;
            }
            p.own[c] |= (uint32_t)owner << k;
            if (code & PENDING) p.pend |= 1u << k;
            if (code & RUNNING) p.run = (int8_t)k;
        }
        Py_DECREF(q);
    }
    Py_DECREF(qs);
    for (int s = 0; s < 2; s++) {
        if (lives[s] < 0 || lives[s] > VMAX || supply[s] < 0 || supply[s] > VMAX) {
            PyErr_SetString(PyExc_ValueError, "lives or supply out of range for the C search");
            return -1;
        }
        p.lives[s] = (int8_t)lives[s];
        p.supply[s] = (int8_t)supply[s];
    }
    if (total + supply[0] + supply[1] > FMAX) {
        PyErr_SetString(PyExc_ValueError, "too many flags for the C search");
        return -1;
    }
    *out = pack(S, &p);
    return 0;
}

static int Core_init(Core *S, PyObject *args, PyObject *kw) {
    PyObject *kinds, *exc;
    if (!PyArg_ParseTuple(args, "OO", &kinds, &exc)) return -1;
    PyObject *ks = PySequence_Fast(kinds, "kinds must be a sequence");
    if (!ks) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ks);
    if (n < 1 || n > NMAX) {
        Py_DECREF(ks);
        PyErr_Format(PyExc_ValueError, "the C search covers programs of 1 to %d cards", NMAX);
        return -1;
    }
    S->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(ks, i));
        if (k < ADD || k > FORK) {
            Py_DECREF(ks);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "unknown card kind");
            return -1;
        }
        S->kinds[i] = (int)k;
    }
    Py_DECREF(ks);
    Py_XSETREF(S->timeout_exc, Py_NewRef(exc));
    if (!S->path.e) {
        S->path.cap = 1 << 10;
        S->path.e = calloc(S->path.cap, sizeof(PEnt));
        S->ctent = S->csegs = 1 << 10;
        S->tent = malloc(S->ctent * sizeof(Key));
        S->segs = malloc(S->csegs * sizeof(Seg));
        S->cmv = 1 << 12;
        S->mv = malloc(S->cmv * sizeof(Move));
        S->dstamp = calloc(DSLOTS, sizeof(uint32_t));
        S->didx = calloc(DSLOTS, sizeof(uint16_t));
        S->cache = calloc(CSLOTS, sizeof(CSlot));
        if (!S->path.e || !S->tent || !S->segs || !S->mv || !S->dstamp || !S->didx ||
            !S->cache) {
            PyErr_NoMemory();
            return -1;
        }
        pthread_mutex_init(&S->mu, NULL);
        pthread_cond_init(&S->cv, NULL);
    }
    return 0;
}

static void Core_dealloc(Core *S) {
    tab_free(&S->table);
    tab_free(&S->g[0]);
    tab_free(&S->g[1]);
    free(S->path.e);
    free(S->tent);
    free(S->segs);
    free(S->mv);
    free(S->dstamp);
    free(S->didx);
    if (S->cache)
        for (size_t i = 0; i < CSLOTS; i++) free(S->cache[i].mv);
    free(S->cache);
    if (S->cmv) {
        pthread_mutex_destroy(&S->mu);
        pthread_cond_destroy(&S->cv);
    }
    Py_XDECREF(S->timeout_exc);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int int_pair(PyObject *o, int out[2]) {
    PyObject *f = PySequence_Fast(o, "expected a pair");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != 2) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "expected a pair");
        return -1;
    }
    for (int i = 0; i < 2; i++) out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Core_value(Core *S, PyObject *args) {
    PyObject *pos, *history, *deadline_o, *progress;
    if (!PyArg_ParseTuple(args, "OOOO", &pos, &history, &deadline_o, &progress)) return NULL;
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 5) {
        PyErr_SetString(PyExc_TypeError, "pos must be (queues, cursor, mover, lives, supply)");
        return NULL;
    }
    int lives[2], supply[2];
    if (int_pair(PyTuple_GET_ITEM(pos, 3), lives) || int_pair(PyTuple_GET_ITEM(pos, 4), supply))
        return NULL;
    Key pk;
    if (to_key(S, PyTuple_GET_ITEM(pos, 0), PyTuple_GET_ITEM(pos, 1), PyTuple_GET_ITEM(pos, 2),
               lives, supply, &pk))
        return NULL;
    PyObject *hs = PySequence_Fast(history, "history must be a sequence");
    if (!hs) return NULL;
    size_t nh = (size_t)PySequence_Fast_GET_SIZE(hs);
    if (!nh) { /* the first position of an epoch: the table may know it already */
        Py_DECREF(hs);
        int v = tab_get(&S->table, pk);
        if (v >= 0) return PyLong_FromLong(v);
    }
    Key *hist = nh ? malloc(nh * sizeof(Key)) : NULL;
    if (nh && !hist) { Py_DECREF(hs); return PyErr_NoMemory(); }
    for (size_t i = 0; i < nh; i++) {
        PyObject *h = PySequence_Fast_GET_ITEM(hs, i);
        if (!PyTuple_Check(h) || PyTuple_GET_SIZE(h) != 3) {
            PyErr_SetString(PyExc_TypeError, "a history key is (queues, cursor, mover)");
        } else {
            to_key(S, PyTuple_GET_ITEM(h, 0), PyTuple_GET_ITEM(h, 1), PyTuple_GET_ITEM(h, 2),
                   lives, supply, &hist[i]);
        }
        if (PyErr_Occurred()) { free(hist); Py_DECREF(hs); return NULL; }
    }
    if (nh) Py_DECREF(hs);
    S->deadline = deadline_o == Py_None ? -1.0 : PyFloat_AsDouble(deadline_o);
    if (PyErr_Occurred()) { free(hist); return NULL; }

    path_clear(&S->path);
    S->ntent = S->nsegs = S->nmv = 0;
    S->job_key = pk;
    S->job_hist = hist;
    S->job_nhist = nh;
    S->done = 0;
    S->abort_flag = 0;
    S->shown_nodes = S->nodes;

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_t th;
    int rc = -1;
    for (size_t stack = (size_t)1 << 30; rc && stack >= ((size_t)1 << 24); stack >>= 2) {
        pthread_attr_setstacksize(&attr, stack);
        rc = pthread_create(&th, &attr, run_job, S);
    }
    pthread_attr_destroy(&attr);
    if (rc) {
        free(hist);
        PyErr_SetString(PyExc_RuntimeError, "cannot start the search thread");
        return NULL;
    }
    int interrupted = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&S->mu);
    while (!S->done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&S->cv, &S->mu, &ts);
        if (S->done || interrupted) continue;
        pthread_mutex_unlock(&S->mu);
        Py_BLOCK_THREADS
        if (PyErr_CheckSignals() < 0) interrupted = 1;
        else if (progress != Py_None) {
            PyObject *r = PyObject_CallNoArgs(progress);
            if (r) Py_DECREF(r);
            else interrupted = 1;
        }
        Py_UNBLOCK_THREADS
        if (interrupted) __atomic_store_n(&S->abort_flag, 1, __ATOMIC_RELAXED);
        pthread_mutex_lock(&S->mu);
    }
    pthread_mutex_unlock(&S->mu);
    pthread_join(th, NULL);
    Py_END_ALLOW_THREADS
    free(hist);
    S->job_hist = NULL;
    tab_free(&S->tmp);
    S->shown_nodes = S->nodes;
    if (interrupted) return NULL; /* the exception of the callback or the signal handler */
    if (S->err == TIMEOUT) {
        PyErr_SetNone(S->timeout_exc);
        return NULL;
    }
    if (S->err == NOMEM) return PyErr_NoMemory();
    return PyLong_FromLong(S->job_result);
}

static PyObject *Core_get_nodes(Core *S, void *closure) {
    return PyLong_FromUnsignedLongLong(__atomic_load_n(&S->shown_nodes, __ATOMIC_RELAXED));
}

static PyObject *Core_get_table_size(Core *S, void *closure) {
    return PyLong_FromSize_t(S->table.n);
}

static PyMethodDef Core_methods[] = {
    {"value", (PyCFunction)Core_value, METH_VARARGS,
     "value(pos, history, deadline, progress): the winning seat (see search.Solver.value); "
     "history: repetition keys, none equal to pos's; deadline: time.monotonic() value or "
     "None; progress: a callable or None, called now and then during the search"},
    {NULL}
};

static PyObject *Core_get_max_nodes(Core *S, void *closure) {
    return PyLong_FromUnsignedLongLong(S->max_nodes);
}

static int Core_set_max_nodes(Core *S, PyObject *v, void *closure) {
    unsigned long long n = v == NULL || v == Py_None ? 0 : PyLong_AsUnsignedLongLong(v);
    if (PyErr_Occurred()) return -1;
    S->max_nodes = n;
    return 0;
}

static PyGetSetDef Core_getset[] = {
    {"max_nodes", (getter)Core_get_max_nodes, (setter)Core_set_max_nodes,
     "a budget of positions (None: none): past it the search stops with Timeout", NULL},
    {"nodes", (getter)Core_get_nodes, NULL, "positions searched so far", NULL},
    {"table_size", (getter)Core_get_table_size, NULL, "entries of the main table", NULL},
    {NULL}
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "spaghetti.solver._csearch.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Core(kinds, timeout_exc): the search state of one model (its tables persist)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_csearch", "The exact search of search.py in C.", -1, NULL,
};

PyMODINIT_FUNC PyInit__csearch(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_CARDS", NMAX);
    PyModule_AddIntConstant(m, "MAX_FLAGS", FMAX);
    PyModule_AddIntConstant(m, "MAX_VALUE", VMAX);
    return m;
}
