/* A plain broken-profile DP, the reference of benches/frontier.sh: the tilings of an
 * X x Y x Z box by one polycube (every rotation), written apart from polycover.
 *
 * Cells in order x fastest, then y, then z. Before cell i, every cell below i is
 * filled; the state is which of the cells i .. i + W - 1 are (bit k: cell i + k), where
 * W is the longest span of a placement in that order. A layer maps states to counts
 * (unsigned 128-bit: every box of the benchmark has fewer tilings than 2^127) in an
 * open-addressing hash table; step i moves each state on by one bit, placing at an
 * empty cell i each placement whose first cell is i.
 *
 *   cc -O2 -o profile_dp benches/profile_dp.c
 *   ./profile_dp X Y Z 'x,y,z x,y,z ...'     (the piece's cells)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
static int X, Y, Z;

/* A table of states: keys with a count each; a key of all ones marks an empty slot. */
typedef struct { uint64_t *key; u128 *val; size_t cap, len; } Table;

static void table_init(Table *t, size_t cap) {
    t->cap = cap; t->len = 0;
    t->key = malloc(cap * sizeof *t->key); t->val = malloc(cap * sizeof *t->val);
    if (!t->key || !t->val) { fprintf(stderr, "out of memory\n"); exit(1); }
    memset(t->key, 0xff, cap * sizeof *t->key);
}

static void table_add(Table *t, uint64_t k, u128 v);

static void table_grow(Table *t) {
    Table n; table_init(&n, t->cap * 2);
    for (size_t s = 0; s < t->cap; s++) if (t->key[s] != UINT64_MAX) table_add(&n, t->key[s], t->val[s]);
    free(t->key); free(t->val); *t = n;
}

static void table_add(Table *t, uint64_t k, u128 v) {
    if (2 * (t->len + 1) > t->cap) table_grow(t);
    size_t s = (k * 0x9e3779b97f4a7c15ull) >> 20 & (t->cap - 1);
    while (t->key[s] != UINT64_MAX && t->key[s] != k) s = (s + 1) & (t->cap - 1);
    if (t->key[s] == UINT64_MAX) { t->key[s] = k; t->val[s] = v; t->len++; }
    else t->val[s] += v;
}

static int index_of(int x, int y, int z) { return x + X * (y + Y * z); }

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: profile_dp X Y Z 'x,y,z ...'\n"); return 2; }
    X = atoi(argv[1]); Y = atoi(argv[2]); Z = atoi(argv[3]);
    int piece[64][3], n = 0;
    for (char *p = strtok(argv[4], " "); p && n < 64; p = strtok(NULL, " "), n++)
        sscanf(p, "%d,%d,%d", &piece[n][0], &piece[n][1], &piece[n][2]);
    int cells = X * Y * Z;
    /* The 24 rotations: x -> (s0 * axis p0), ... over the even permutations with an
     * even number of sign flips and the odd ones with an odd number. */
    static const int perms[6][3] = {{0,1,2},{1,2,0},{2,0,1},{0,2,1},{2,1,0},{1,0,2}};
    int nplace = 0, width = 1;
    uint64_t *pmask = malloc(sizeof(uint64_t) * 24 * (size_t)cells);
    int *pstart = malloc(sizeof(int) * 24 * (size_t)cells);
    for (int h = 0; h < cells; h++) {
        int hx = h % X, hy = h / X % Y, hz = h / (X * Y);
        uint64_t seen[24]; int nseen = 0;
        for (int p = 0; p < 6; p++) for (int sg = 0; sg < 8; sg++) {
            int flips = __builtin_popcount(sg);
            if ((p < 3) != (flips % 2 == 0)) continue;
            int c[64][3], first = 0;
            for (int k = 0; k < n; k++) for (int a = 0; a < 3; a++)
                c[k][a] = (sg >> a & 1 ? -1 : 1) * piece[k][perms[p][a]];
            for (int k = 1; k < n; k++)
                if (c[k][2] < c[first][2] || (c[k][2] == c[first][2] && (c[k][1] < c[first][1] ||
                    (c[k][1] == c[first][1] && c[k][0] < c[first][0])))) first = k;
            uint64_t mask = 0; int ok = 1;
            for (int k = 0; k < n && ok; k++) {
                int x = hx + c[k][0] - c[first][0], y = hy + c[k][1] - c[first][1],
                    z = hz + c[k][2] - c[first][2];
                if (x < 0 || y < 0 || z < 0 || x >= X || y >= Y || z >= Z) { ok = 0; break; }
                int off = index_of(x, y, z) - h;
                if (off >= 63) { fprintf(stderr, "a placement spans more than 63 cells\n"); return 2; }
                mask |= 1ull << off;
                if (off + 1 > width) width = off + 1;
            }
            int dup = 0;
            for (int s = 0; s < nseen; s++) dup |= seen[s] == mask;
            if (ok && !dup) { seen[nseen++] = mask; pmask[nplace] = mask; pstart[nplace++] = h; }
        }
    }
    Table cur, next; table_init(&cur, 16); table_add(&cur, 0, 1);
    size_t widest = 1, q = 0;
    for (int h = 0; h < cells; h++) {
        table_init(&next, 16);
        size_t q0 = q;
        for (size_t s = 0; s < cur.cap; s++) {
            uint64_t k = cur.key[s];
            if (k == UINT64_MAX) continue;
            if (k & 1) { table_add(&next, k >> 1, cur.val[s]); continue; }
            for (q = q0; q < (size_t)nplace && pstart[q] == h; q++)
                if (!(k & pmask[q])) table_add(&next, (k | pmask[q]) >> 1, cur.val[s]);
        }
        while (q < (size_t)nplace && pstart[q] == h) q++;
        free(cur.key); free(cur.val); cur = next;
        if (cur.len > widest) widest = cur.len;
    }
    u128 total = 0;
    for (size_t s = 0; s < cur.cap; s++) if (cur.key[s] == 0) total = cur.val[s];
    char digits[64]; int d = 63; digits[d] = 0;
    do { digits[--d] = '0' + (int)(total % 10); total /= 10; } while (total);
    printf("%s\n", digits + d);
    fprintf(stderr, "c profile_dp %dx%dx%d: %d placements, window %d, widest layer %zu states\n",
            X, Y, Z, nplace, width, widest);
    return 0;
}
