/* The search of search.py in C: df-pn over the same keys (a position and the set of positions
 * seen in its epoch), the same estimates, thresholds, child order and node count.
 *
 * A position is packed into 128 bits (see pack): per card its queue length and the owners of
 * its flags, the pending marks of the cursor card (the only card that has any), the index of
 * the RUNNING flag (only on a ForkBomb card's turn), cursor, mover, lives and supplies. Keys
 * are equal exactly when the model's position tuples are. A placement position is its queues
 * and the index of the next placement, marked by the top bit. The history set of a node is
 * hashed into 64 bits (the XOR of its positions' hashes). A table entry holds a 64-bit
 * fingerprint of (position, history hash), the proof and disproof numbers (28 bits each) and
 * the work spent on it (8 bits, a logarithm): 16 bytes, so that a table holds twice as many
 * entries as with the 128-bit position itself, and a probe window spans four cache lines.
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
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

#define NMAX 6    /* cards: 5 bits of queue length each in the low word */
#define FMAX 31   /* flags on the cards plus supplies: owners fit 31 bits */
#define VMAX 31   /* lives and supplies: 5 bits each */
#define PMAX 32   /* placements */
#define INF 0x0FFFFFFFu /* 28 bits: the top 4 of each number hold half the work's code */
#define NONE INT32_MIN
#define PLACE (1ULL << 63) /* the mark of a placement key */

enum { ADD, MOVE, REMOVE, BUG, FORK };
enum { REV, IRR, END };
enum { OK, TIMEOUT, NOMEM, ABORTED };
enum { STOP_NONE, STOP_INTERRUPT, STOP_DEADLINE }; /* Core.abort_flag */

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

/* A child in the df-pn loop: its key and history hash, or the fixed numbers of a turn whose
 * outcome is known at once. */
typedef struct { Key key; uint64_t sig; uint32_t pn, dn; int fixed; } Child;

/* The table: open addressing with a probe window; an entry whose window is full replaces the
 * entry of the window that took least work. */
typedef struct { uint64_t fp; uint32_t pnw, dnw; } Ent; /* 16 bytes; fp 0: an empty slot */

/* The work spent on an entry, in 8 bits: the exponent and the next three binary digits. */
static inline uint32_t wenc(uint64_t x) {
    if (!x) return 0;
    int e = 63 - __builtin_clzll(x);
    uint64_t m = e >= 3 ? (x >> (e - 3)) & 7 : (x << (3 - e)) & 7;
    uint64_t c = (uint64_t)e * 8 + m;
    return c > 255 ? 255 : (uint32_t)c;
}
static inline uint64_t wdec(uint32_t c) {
    int e = (int)(c >> 3);
    uint64_t m = 8 + (c & 7);
    return e >= 3 ? m << (e - 3) : m >> (3 - e);
}
static inline uint32_t ent_pn(const Ent *e) { return e->pnw & INF; }
static inline uint32_t ent_dn(const Ent *e) { return e->dnw & INF; }
static inline uint64_t ent_work(const Ent *e) {
    return wdec((e->pnw >> 28) << 4 | e->dnw >> 28);
}
static inline void ent_set(Ent *e, uint32_t pn, uint32_t dn, uint64_t work) {
    uint32_t c = wenc(work);
    e->pnw = pn | (c >> 4) << 28;
    e->dnw = dn | (c & 15) << 28;
}
#define WINDOW 16
typedef struct { Ent *e; size_t cap, n, bytes; } Table;

typedef struct { Key k; int32_t idx; int32_t used; } PEnt;
typedef struct { PEnt *e; size_t cap, n; } PathMap;

/* The ordered turns of recently searched positions: a direct-mapped cache, since df-pn
 * comes back to the same nodes again and again. */
#define CSLOTS (1 << 16)
typedef struct { Key key; Move *mv; uint32_t n, cap; int used; } CSlot;

typedef struct {
    PyObject_HEAD
    int n;
    int kinds[NMAX];
    int order[PMAX], norder, life, supply;
    PyObject *timeout_exc;
    Table table;
    PathMap path;
    Move *mv; size_t nmv, cmv;
    Child *ch; size_t nch, cch;
    uint32_t *dstamp; uint16_t *didx; uint32_t stamp; /* dedup set of one move list */
    CSlot *cache;
    uint64_t nodes, shown_nodes;
    uint64_t max_nodes; /* 0: no budget; else a Timeout once past it (deterministic) */
    double deadline;
    int abort_flag;
    int err;
    jmp_buf jb;
    /* one value() call on the search thread */
    Key job_key; uint64_t job_sig; Key *job_hist; size_t job_nhist; int job_result;
    uint32_t job_th[2], job_num[2]; /* the thresholds of the root, and its numbers after */
    int done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} Core;

static void fail(Core *S, int err) { S->err = err; longjmp(S->jb, 1); }

/* ------------------------------------------------------------------ hashing and the table */

static inline uint64_t mix(Key k) {
    uint64_t h = k.lo ^ (k.hi * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* The hash of a position in a history set (independent of mix, which places keys in tables) */
static inline uint64_t zob(Key k) {
    uint64_t h = (k.lo + 0x632BE59BD9B4E019ULL) ^ (k.hi * 0xD6E8FEB86659FD93ULL);
    h ^= h >> 32; h *= 0x9FB21C651E98DF25ULL;
    h ^= h >> 29; h *= 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 32;
    return h | 1; /* never 0: a used entry has a nonzero sig or a placement key */
}

static inline int keq(Key a, Key b) { return a.lo == b.lo && a.hi == b.hi; }

static int tab_init(Table *t, size_t mb) {
    /* any number of slots (a window starting at the last one runs into WINDOW spare ones) */
    size_t cap = mb * ((size_t)1 << 20) / sizeof(Ent);
    cap = cap > (1 << 12) + WINDOW ? cap - WINDOW : 1 << 12;
    /* zeroed pages on first touch; huge pages where the system allows them, since the
     * lookups are random and TLB misses count */
    size_t bytes = (cap + WINDOW) * sizeof(Ent);
    void *e = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (e == MAP_FAILED) return -1;
#ifdef MADV_HUGEPAGE
    madvise(e, bytes, MADV_HUGEPAGE);
#endif
    t->e = e;
    t->bytes = bytes;
    t->cap = cap;
    t->n = 0;
    return 0;
}

static inline int used(const Ent *e) { return e->fp != 0; }

static inline size_t home(const Table *t, Key k, uint64_t sig) {
    uint64_t h = mix(k) ^ (sig * 0x9E3779B97F4A7C15ULL);
    return (size_t)(((unsigned __int128)h * t->cap) >> 64);
}

/* What an entry keeps of its key: a hash independent of home (so a false match needs both to
 * agree: about one chance in 2^64 per slot compared), never 0. */
static inline uint64_t fingerprint(Key k, uint64_t sig) {
    uint64_t h = zob(k) + sig * 0xD1B54A32D192ED03ULL;
    h ^= h >> 31; h *= 0x94D049BB133111EBULL;
    h ^= h >> 29;
    return h ? h : 1;
}

/* Slots are never emptied, and an entry goes to the first empty slot of its window if there
 * is one: so a lookup can stop at the first empty slot. */
static Ent *tab_find(const Table *t, Key k, uint64_t sig) {
    size_t i = home(t, k, sig);
    uint64_t fp = fingerprint(k, sig);
    for (int w = 0; w < WINDOW; w++, i++) {
        Ent *e = &t->e[i];
        if (!used(e)) return NULL;
        if (e->fp == fp) return e;
    }
    return NULL;
}

static void tab_store(Table *t, Key k, uint64_t sig, uint32_t pn, uint32_t dn, uint64_t work) {
    size_t i = home(t, k, sig);
    uint64_t fp = fingerprint(k, sig);
    Ent *victim = NULL;
    for (int w = 0; w < WINDOW; w++, i++) {
        Ent *e = &t->e[i];
        if (!used(e)) { /* the key is not further on (see tab_find) */
            victim = e;
            break;
        }
        if (e->fp == fp) {
            ent_set(e, pn, dn, ent_work(e) + work);
            return;
        }
        if (!victim || ent_work(e) < ent_work(victim)) victim = e;
    }
    if (!used(victim)) t->n++;
    victim->fp = fp;
    ent_set(victim, pn, dn, work);
}

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

/* ------------------------------------------------------------------ moves (Model.moves without
 * self-damage, and Solver._ordered: the same turns in the same order, equal results once) */

#define DSLOTS 1024

static inline int mine(const Core *S, const Pos *p, int seat) {
    int f[2];
    count_flags(S, p, f);
    return f[seat];
}

/* Room for `need` elements of `size` bytes in the arena *arr of *cap (doubling). */
static void reserve_in(Core *S, void **arr, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return;
    size_t c = *cap;
    while (need > c) c *= 2;
    void *a = realloc(*arr, c * size);
    if (!a) fail(S, NOMEM);
    *arr = a;
    *cap = c;
}

static void reserve(Core *S, size_t more) {
    reserve_in(S, (void **)&S->mv, &S->cmv, S->nmv + more, sizeof(Move));
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

/* ------------------------------------------------------------------ placement */

static int has_flag_of(const Pos *p, int c, int seat) {
    int ones = __builtin_popcount(p->own[c]);
    return seat ? ones > 0 : p->len[c] - ones > 0;
}

/* The first turn of the execution phase: the cursor arrives fresh on card 0 (fast.Model.begin) */
static Key begin(const Core *S, const Pos *placed) {
    Pos p = *placed;
    p.pend = 0;
    p.run = -1;
    p.cursor = (uint8_t)(S->n - 1);
    p.lives[0] = p.lives[1] = (int8_t)S->life;
    p.supply[0] = p.supply[1] = (int8_t)S->supply;
    next_turn(S, &p);
    return pack(S, &p);
}

static Key place_key(const Core *S, const Pos *p, int index) {
    Pos q = *p;
    q.pend = 0; q.run = -1; q.cursor = q.mover = 0;
    q.lives[0] = q.lives[1] = q.supply[0] = q.supply[1] = 0;
    Key k = pack(S, &q);
    k.hi = PLACE | (uint64_t)index;
    return k;
}

/* ------------------------------------------------------------------ df-pn (search.Solver._mid) */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The calling thread sets abort_flag (STOP_*) at the deadline or on an interruption; it is
 * read at every node, since a node can take long (fresh pages of a large table, faulted in
 * one by one), while the clock is read by the search thread only now and then. */
static inline void count_node(Core *S) {
    int stop = __atomic_load_n(&S->abort_flag, __ATOMIC_RELAXED);
    if (stop) fail(S, stop == STOP_DEADLINE ? TIMEOUT : ABORTED);
    if (!(++S->nodes & 0x3FF)) {
        __atomic_store_n(&S->shown_nodes, S->nodes, __ATOMIC_RELAXED);
        if (S->nodes & 0x3FFF) return;
        if (S->deadline >= 0 && now() > S->deadline) fail(S, TIMEOUT);
        if (S->max_nodes && S->nodes > S->max_nodes) fail(S, TIMEOUT);
    }
}

/* search._estimate */
static void estimate(const Core *S, Key k, uint32_t *pn, uint32_t *dn) {
    if (k.hi & PLACE) { *pn = *dn = 1; return; }
    int total = 0, ones = 0; /* flags on the cards, and seat 1's */
    for (int c = 0; c < S->n; c++) {
        int len = (k.lo >> (32 + 5 * c)) & 31;
        ones += __builtin_popcountll((k.lo >> total) & ((1ULL << len) - 1));
        total += len;
    }
    int cursor = (k.hi >> 38) & 7, mover = (k.hi >> 41) & 1;
    int sup = (k.hi >> (mover ? 57 : 52)) & 31;
    uint32_t est;
    switch (S->kinds[cursor]) {
    case MOVE: est = 1 + (uint32_t)(total * (S->n - 1) / 2); break;
    case REMOVE: est = 1 + (uint32_t)(total / 2); break;
    case ADD: est = 1 + (uint32_t)(sup ? S->n - 1 : 0); break;
    default: est = 2;
    }
    if (mover == 0) { *pn = 1; *dn = est; }
    else { *pn = est; *dn = 1; }
    /* the material balance: lives count double, flags on the cards once */
    int d = 2 * ((int)((k.hi >> 42) & 31) - (int)((k.hi >> 47) & 31)) + (total - 2 * ones);
    if (d < 0) *pn *= (uint32_t)(1 - d);
    if (d > 0) *dn *= (uint32_t)(1 + d);
}

static void reserve_ch(Core *S, size_t more) {
    reserve_in(S, (void **)&S->ch, &S->cch, S->nch + more, sizeof(Child));
}

/* Appends the children of (k, sig) to the child arena (search.Solver._children); returns the
 * mover. */
static int children(Core *S, Key k, uint64_t sig) {
    Pos p;
    if (k.hi & PLACE) {
        int index = (int)(k.hi & 0xFF), seat = S->order[index];
        Key qk = {k.lo, 0};
        unpack(S, qk, &p);
        reserve_ch(S, (size_t)S->n);
        for (int c = 0; c < S->n; c++) {
            if (has_flag_of(&p, c, seat)) continue;
            Pos q = p;
            append_flag(&q, c, seat);
            Child *ch = &S->ch[S->nch++];
            ch->fixed = 0;
            if (index + 1 < S->norder) {
                ch->key = place_key(S, &q, index + 1);
                ch->sig = 0;
            } else {
                ch->key = begin(S, &q);
                ch->sig = zob(ch->key);
            }
        }
        return seat;
    }
    unpack(S, k, &p);
    size_t base = S->nmv;
    size_t cnt = gen(S, &p, k);
    reserve_ch(S, cnt);
    for (size_t i = 0; i < cnt; i++) {
        const Move *m = &S->mv[base + i];
        Child *ch = &S->ch[S->nch++];
        ch->fixed = 0;
        if (m->tag == END) {
            ch->fixed = 1;
            ch->pn = m->win == 0 ? 0 : INF;
            ch->dn = m->win == 0 ? INF : 0;
        } else if (m->tag == REV) {
            if (path_get(&S->path, m->key) != NONE) {
                Pos r;
                unpack(S, m->key, &r);
                int w = tiebreak(S, &r);
                ch->fixed = 1;
                ch->pn = w == 0 ? 0 : INF;
                ch->dn = w == 0 ? INF : 0;
            } else {
                ch->key = m->key;
                ch->sig = sig ^ zob(m->key);
            }
        } else {
            ch->key = m->key;
            ch->sig = zob(m->key);
        }
    }
    S->nmv = base;
    return p.mover;
}

/* The 1+epsilon trick (Pawlewicz and Lew 2007): a child may run a quarter past its sibling's
 * number before the search switches, which saves most re-expansions. */
static inline uint64_t grow(uint32_t second) { return (uint64_t)second + second / 4 + 1; }

static void mid(Core *S, Key k, uint64_t sig, uint32_t thpn, uint32_t thdn,
                uint32_t *out_pn, uint32_t *out_dn) {
    count_node(S);
    uint64_t start = S->nodes;
    size_t base = S->nch;
    int is_or = children(S, k, sig) == 0;
    size_t cnt = S->nch - base;
    /* the children's numbers, read once: afterwards only the child searched changes (a
     * stale sibling only steers the search; proven numbers never change). The table slots
     * are fetched first, all at once, as each is likely a cache miss. */
    for (size_t i = 0; i < cnt; i++) {
        const Child *ch = &S->ch[base + i];
        if (!ch->fixed) __builtin_prefetch(&S->table.e[home(&S->table, ch->key, ch->sig)]);
    }
    for (size_t i = 0; i < cnt; i++) {
        Child *ch = &S->ch[base + i];
        if (ch->fixed) continue;
        const Ent *e = tab_find(&S->table, ch->key, ch->sig);
        if (e) { ch->pn = ent_pn(e); ch->dn = ent_dn(e); }
        else estimate(S, ch->key, &ch->pn, &ch->dn);
    }
    /* phi/delta form: phi is the mover's number (pn at an OR node, dn at an AND node), the
     * least of the children's deltas; delta is the sum of the children's phis */
    uint32_t thphi = is_or ? thpn : thdn, thdelta = is_or ? thdn : thpn;
    uint32_t phi, delta;
    for (;;) {
        uint64_t sum = 0;
        int best = -1;
        uint32_t bdelta = 0, second = INF;
        phi = INF;
        for (size_t i = 0; i < cnt; i++) {
            const Child *ch = &S->ch[base + i];
            uint32_t cphi = is_or ? ch->pn : ch->dn, cdelta = is_or ? ch->dn : ch->pn;
            if (sum != INF) sum = cdelta == INF ? INF : (sum + cdelta < INF ? sum + cdelta : INF - 1);
            if (best < 0 || cphi < phi) {
                if (best >= 0) second = phi;
                best = (int)i; phi = cphi; bdelta = cdelta;
            } else if (cphi < second) second = cphi;
        }
        delta = (uint32_t)sum;
        if (phi >= thphi || delta >= thdelta) break;
        uint32_t cth_phi = grow(second) < thphi ? (uint32_t)grow(second) : thphi;
        uint32_t cth_delta = (uint32_t)((uint64_t)thdelta - delta + bdelta);
        Child ch = S->ch[base + best];
        int on_path = !(ch.key.hi & PLACE);
        if (on_path) path_put(S, ch.key, 1);
        uint32_t rpn, rdn;
        mid(S, ch.key, ch.sig, is_or ? cth_phi : cth_delta, is_or ? cth_delta : cth_phi,
            &rpn, &rdn);
        if (on_path) path_del(&S->path, ch.key);
        S->ch[base + best].pn = rpn; /* the arena may have moved */
        S->ch[base + best].dn = rdn;
    }
    uint32_t pn = is_or ? phi : delta, dn = is_or ? delta : phi;
    S->nch = base;
    tab_store(&S->table, k, sig, pn, dn, S->nodes - start + 1);
    *out_pn = pn;
    *out_dn = dn;
}

static int top_value(Core *S) {
    Key k = S->job_key;
    for (size_t i = 0; i < S->job_nhist; i++) path_put(S, S->job_hist[i], -1);
    if (!(k.hi & PLACE)) path_put(S, k, 0);
    uint32_t pn, dn;
    mid(S, k, S->job_sig, S->job_th[0], S->job_th[1], &pn, &dn);
    S->job_num[0] = pn;
    S->job_num[1] = dn;
    return pn == 0 ? 0 : (dn == 0 ? 1 : -1);
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

/* A sequence of 1 to max integers in [lo, hi] into out: its length, or -1 with an exception. */
static int int_seq(PyObject *o, int *out, int max, long lo, long hi, const char *what,
                   const char *bad) {
    PyObject *f = PySequence_Fast(o, "expected a sequence");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n < 1 || n > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "the C search covers 1 to %d %s", max, what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v < lo || v > hi) {
            Py_DECREF(f);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, bad);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    return (int)n;
}

static int Core_init(Core *S, PyObject *args, PyObject *kw) {
    PyObject *kinds, *order, *exc;
    int life, supply;
    Py_ssize_t mb;
    if (!PyArg_ParseTuple(args, "OOiiOn", &kinds, &order, &life, &supply, &exc, &mb)) return -1;
    int n = int_seq(kinds, S->kinds, NMAX, ADD, FORK, "cards", "unknown card kind");
    if (n < 0) return -1;
    S->n = n;
    int no = int_seq(order, S->order, PMAX, 0, 1, "placements", "seats are 0 and 1");
    if (no < 0) return -1;
    S->norder = no;
    if (life < 0 || life > VMAX || supply < 0 || supply > VMAX || no + 2 * supply > FMAX) {
        PyErr_SetString(PyExc_ValueError, "lives, supplies or flags out of range for the C search");
        return -1;
    }
    S->life = life;
    S->supply = supply;
    Py_XSETREF(S->timeout_exc, Py_NewRef(exc));
    if (!S->path.e) {
        S->path.cap = 1 << 10;
        S->path.e = calloc(S->path.cap, sizeof(PEnt));
        S->cmv = 1 << 12;
        S->mv = malloc(S->cmv * sizeof(Move));
        S->cch = 1 << 12;
        S->ch = malloc(S->cch * sizeof(Child));
        S->dstamp = calloc(DSLOTS, sizeof(uint32_t));
        S->didx = calloc(DSLOTS, sizeof(uint16_t));
        S->cache = calloc(CSLOTS, sizeof(CSlot));
        if (!S->path.e || !S->mv || !S->ch || !S->dstamp || !S->didx || !S->cache ||
            tab_init(&S->table, mb > 0 ? (size_t)mb : 1)) {
            PyErr_NoMemory();
            return -1;
        }
        pthread_mutex_init(&S->mu, NULL);
        pthread_cond_init(&S->cv, NULL);
    }
    return 0;
}

static void Core_dealloc(Core *S) {
    if (S->table.e) munmap(S->table.e, S->table.bytes);
    free(S->path.e);
    free(S->mv);
    free(S->ch);
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

/* The key and history hash of (pos, history) as search.Solver._root makes them (the caller has
 * checked that pos is not repeated); with want_hist, the history keys go to *hist (malloc'd). */
static int node_of(Core *S, PyObject *pos, PyObject *history, Key *k, uint64_t *sig,
                   Key **hist, size_t *nhist) {
    *hist = NULL;
    *nhist = 0;
    if (PyTuple_Check(pos) && PyTuple_GET_SIZE(pos) == 3) { /* ("place", queues, index) */
        long index = PyLong_AsLong(PyTuple_GET_ITEM(pos, 2));
        if (PyErr_Occurred()) return -1;
        if (index < 0 || index >= S->norder) {
            PyErr_SetString(PyExc_ValueError, "placement index out of range");
            return -1;
        }
        int zero[2] = {0, 0};
        PyObject *z = PyLong_FromLong(0);
        int rc = to_key(S, PyTuple_GET_ITEM(pos, 1), z, z, zero, zero, k);
        Py_DECREF(z);
        if (rc) return -1;
        k->hi = PLACE | (uint64_t)index;
        *sig = 0;
        return 0;
    }
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 5) {
        PyErr_SetString(PyExc_TypeError, "pos must be (queues, cursor, mover, lives, supply) "
                        "or ('place', queues, index)");
        return -1;
    }
    int lives[2], supply[2];
    if (int_pair(PyTuple_GET_ITEM(pos, 3), lives) || int_pair(PyTuple_GET_ITEM(pos, 4), supply))
        return -1;
    if (to_key(S, PyTuple_GET_ITEM(pos, 0), PyTuple_GET_ITEM(pos, 1), PyTuple_GET_ITEM(pos, 2),
               lives, supply, k))
        return -1;
    *sig = zob(*k);
    PyObject *hs = PySequence_Fast(history, "history must be a sequence");
    if (!hs) return -1;
    size_t nh = (size_t)PySequence_Fast_GET_SIZE(hs);
    Key *h = nh ? malloc(nh * sizeof(Key)) : NULL;
    if (nh && !h) { Py_DECREF(hs); PyErr_NoMemory(); return -1; }
    for (size_t i = 0; i < nh; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(hs, i);
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 3) {
            PyErr_SetString(PyExc_TypeError, "a history key is (queues, cursor, mover)");
        } else {
            to_key(S, PyTuple_GET_ITEM(o, 0), PyTuple_GET_ITEM(o, 1), PyTuple_GET_ITEM(o, 2),
                   lives, supply, &h[i]);
        }
        if (PyErr_Occurred()) { free(h); Py_DECREF(hs); return -1; }
        *sig ^= zob(h[i]);
    }
    Py_DECREF(hs);
    *hist = h;
    *nhist = nh;
    return 0;
}

static PyObject *Core_entry(Core *S, PyObject *args) {
    PyObject *pos, *history;
    if (!PyArg_ParseTuple(args, "OO", &pos, &history)) return NULL;
    Key k;
    uint64_t sig;
    Key *hist;
    size_t nh;
    if (node_of(S, pos, history, &k, &sig, &hist, &nh)) return NULL;
    free(hist);
    const Ent *e = tab_find(&S->table, k, sig);
    if (!e) Py_RETURN_NONE;
    return Py_BuildValue("(kkK)", (unsigned long)ent_pn(e), (unsigned long)ent_dn(e),
                         (unsigned long long)ent_work(e));
}

/* Searches (pos, history) until its numbers reach the thresholds th (INF, INF: until it is
 * proven) on the search thread; 0 with the numbers in num, or -1 with an exception. */
static int run_search(Core *S, PyObject *pos, PyObject *history, PyObject *deadline_o,
                      PyObject *progress, const uint32_t thr[2], uint32_t num[2]) {
    Key pk;
    uint64_t sig;
    Key *hist;
    size_t nh;
    if (node_of(S, pos, history, &pk, &sig, &hist, &nh)) return -1;
    const Ent *e = tab_find(&S->table, pk, sig);
    if (e && (ent_pn(e) == 0 || ent_dn(e) == 0 || ent_pn(e) >= thr[0] || ent_dn(e) >= thr[1])) {
        free(hist); /* proven already, or past the thresholds */
        num[0] = ent_pn(e);
        num[1] = ent_dn(e);
        return 0;
    }
    S->deadline = deadline_o == Py_None ? -1.0 : PyFloat_AsDouble(deadline_o);
    if (PyErr_Occurred()) { free(hist); return -1; }
    S->job_th[0] = thr[0];
    S->job_th[1] = thr[1];

    path_clear(&S->path);
    S->nmv = S->nch = 0;
    S->job_key = pk;
    S->job_sig = sig;
    S->job_hist = hist;
    S->job_nhist = nh;
    S->done = 0;
    S->abort_flag = STOP_NONE;
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
        return -1;
    }
    int interrupted = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&S->mu);
    while (!S->done) {
        /* wake every 0.2 s, and at the deadline, which this thread holds */
        long wait_ns = 200 * 1000000L;
        if (S->deadline >= 0) {
            double left = S->deadline - now();
            if (left <= 0) {
                __atomic_store_n(&S->abort_flag, STOP_DEADLINE, __ATOMIC_RELAXED);
                left = 0.01; /* until the search thread stops */
            }
            if (left * 1e9 < wait_ns) wait_ns = (long)(left * 1e9) + 1;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += wait_ns;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&S->cv, &S->mu, &ts);
        if (S->done || interrupted || S->abort_flag) continue;
        pthread_mutex_unlock(&S->mu);
        Py_BLOCK_THREADS
        if (PyErr_CheckSignals() < 0) interrupted = 1;
        else if (progress != Py_None) {
            PyObject *r = PyObject_CallNoArgs(progress);
            if (r) Py_DECREF(r);
            else interrupted = 1;
        }
        Py_UNBLOCK_THREADS
        if (interrupted) __atomic_store_n(&S->abort_flag, STOP_INTERRUPT, __ATOMIC_RELAXED);
        pthread_mutex_lock(&S->mu);
    }
    pthread_mutex_unlock(&S->mu);
    pthread_join(th, NULL);
    Py_END_ALLOW_THREADS
    free(hist);
    S->job_hist = NULL;
    S->shown_nodes = S->nodes;
    if (interrupted) return -1; /* the exception of the callback or the signal handler */
    if (S->err == TIMEOUT) {
        PyErr_SetNone(S->timeout_exc);
        return -1;
    }
    if (S->err == NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    num[0] = S->job_num[0];
    num[1] = S->job_num[1];
    return 0;
}

static PyObject *Core_value(Core *S, PyObject *args) {
    PyObject *pos, *history, *deadline_o, *progress;
    if (!PyArg_ParseTuple(args, "OOOO", &pos, &history, &deadline_o, &progress)) return NULL;
    uint32_t th[2] = {INF, INF}, num[2];
    if (run_search(S, pos, history, deadline_o, progress, th, num)) return NULL;
    return PyLong_FromLong(num[0] == 0 ? 0 : 1);
}

static PyObject *Core_search(Core *S, PyObject *args) {
    PyObject *pos, *history, *deadline_o, *progress;
    unsigned long thpn, thdn;
    if (!PyArg_ParseTuple(args, "OOkkOO", &pos, &history, &thpn, &thdn, &deadline_o, &progress))
        return NULL;
    uint32_t th[2], num[2];
    th[0] = thpn > INF ? INF : (uint32_t)thpn;
    th[1] = thdn > INF ? INF : (uint32_t)thdn;
    if (run_search(S, pos, history, deadline_o, progress, th, num)) return NULL;
    return Py_BuildValue("(kk)", (unsigned long)num[0], (unsigned long)num[1]);
}

static PyObject *Core_get_nodes(Core *S, void *closure) {
    return PyLong_FromUnsignedLongLong(__atomic_load_n(&S->shown_nodes, __ATOMIC_RELAXED));
}

static PyObject *Core_get_table_size(Core *S, void *closure) {
    return PyLong_FromSize_t(S->table.n);
}

/* ------------------------------------------------------------------ saving the table */

/* What a saved table is for: a table is only read back into a core of the same model and
 * the same number of slots (the slot of a key depends on it). */
typedef struct {
    char magic[8];
    int32_t n, kinds[NMAX], norder, order[PMAX], life, supply;
    uint64_t cap, count;
} TableHeader;

static const char TABLE_MAGIC[8] = "SPGTAB1";

static void header_of(const Core *S, TableHeader *h) {
    memset(h, 0, sizeof *h);
    memcpy(h->magic, TABLE_MAGIC, sizeof h->magic);
    h->n = S->n;
    for (int i = 0; i < S->n; i++) h->kinds[i] = S->kinds[i];
    h->norder = S->norder;
    for (int i = 0; i < S->norder; i++) h->order[i] = S->order[i];
    h->life = S->life;
    h->supply = S->supply;
    h->cap = S->table.cap;
    h->count = S->table.n;
}

/* Whole reads and writes of a file descriptor; 0, or -1 with errno set (EIO: a short file). */
static int io_all(int fd, char *p, size_t len, int writing) {
    while (len) {
        ssize_t r = writing ? write(fd, p, len > (1 << 30) ? (1 << 30) : len)
                            : read(fd, p, len > (1 << 30) ? (1 << 30) : len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { if (r == 0) errno = EIO; return -1; }
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

static PyObject *Core_save(Core *S, PyObject *args) {
    PyObject *path_o;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_o)) return NULL;
    TableHeader h;
    header_of(S, &h);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    int fd = open(PyBytes_AS_STRING(path_o), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    rc = fd < 0 ? -1 : 0;
    if (!rc) rc = io_all(fd, (char *)&h, sizeof h, 1);
    if (!rc) rc = io_all(fd, (char *)S->table.e, S->table.bytes, 1);
    if (fd >= 0 && close(fd) && !rc) rc = -1;
    Py_END_ALLOW_THREADS
    if (rc) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_o);
        Py_DECREF(path_o);
        return NULL;
    }
    Py_DECREF(path_o);
    Py_RETURN_NONE;
}

static PyObject *Core_load(Core *S, PyObject *args) {
    PyObject *path_o;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_o)) return NULL;
    TableHeader want, got;
    header_of(S, &want);
    int rc, fd;
    Py_BEGIN_ALLOW_THREADS
    fd = open(PyBytes_AS_STRING(path_o), O_RDONLY);
    rc = fd < 0 ? -1 : io_all(fd, (char *)&got, sizeof got, 0);
    Py_END_ALLOW_THREADS
    if (rc) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_o);
        if (fd >= 0) close(fd);
        Py_DECREF(path_o);
        return NULL;
    }
    want.count = got.count;
    if (memcmp(&want, &got, sizeof want)) {
        close(fd);
        PyErr_Format(PyExc_ValueError, "%s: not a saved table of this program with a table of "
                     "this size", PyBytes_AS_STRING(path_o));
        Py_DECREF(path_o);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = io_all(fd, (char *)S->table.e, S->table.bytes, 0);
    close(fd);
    Py_END_ALLOW_THREADS
    if (rc) { /* a torn file: the table must not keep half of it */
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_o);
        memset(S->table.e, 0, S->table.bytes);
        S->table.n = 0;
        Py_DECREF(path_o);
        return NULL;
    }
    S->table.n = got.count;
    Py_DECREF(path_o);
    Py_RETURN_NONE;
}

static PyMethodDef Core_methods[] = {
    {"save", (PyCFunction)Core_save, METH_VARARGS,
     "save(path): write the table to a file (for load)"},
    {"load", (PyCFunction)Core_load, METH_VARARGS,
     "load(path): replace the table by one saved from a core of the same model and table "
     "size (ValueError if it is not one; OSError if it cannot be read)"},
    {"value", (PyCFunction)Core_value, METH_VARARGS,
     "value(pos, history, deadline, progress): the winning seat (see search.Solver.value); "
     "history: repetition keys, none equal to pos's; deadline: time.monotonic() value or "
     "None; progress: a callable or None, called now and then during the search"},
    {"search", (PyCFunction)Core_search, METH_VARARGS,
     "search(pos, history, thpn, thdn, deadline, progress): search the node until its proof "
     "number reaches thpn or its disproof number thdn (df-pn's thresholds; INF each: until it "
     "is proven); its (pn, dn)"},
    {"entry", (PyCFunction)Core_entry, METH_VARARGS,
     "entry(pos, history): the table's (pn, dn, work) of this node, or None"},
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
    .tp_doc = "Core(kinds, placement_order, life, supply, timeout_exc, table_mb): the search "
              "state of one model (its table persists)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_csearch", "The df-pn search of search.py in C.", -1, NULL,
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
    PyModule_AddIntConstant(m, "MAX_PLACEMENTS", PMAX);
    return m;
}
