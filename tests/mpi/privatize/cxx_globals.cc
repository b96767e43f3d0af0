/* SPDX-License-Identifier: BSD-3-Clause */
/* Privatization of every kind of C++ global (driver and variants: privtest.h): a global with constructor
 * and destructor (its constructor ran exactly once in each rank's copy, on that rank), static class
 * members, C++17 inline variables and function-local statics of inline functions (both STB_GNU_UNIQUE
 * symbols), template static members, std::vector / std::string / std::map globals, thread_local objects
 * with constructor and destructor.  Destructors check their object and count their runs (privcount). */
#include <map>
#include <string>
#include <vector>
#include "privtest.h"

enum { K_OBJ, K_INLINE, K_FSTATIC, K_TEMPLATE, K_TL, K_TL_FSTATIC };

/* An object whose destructor checks itself: kind, what it is, whether it is per rank in this variant. */
struct Tracked {
    int kind;
    const char *what;
    bool per_rank;
    int init, v;
    int ctor_slot;
    Tracked(int k, const char *w, bool pr, int i)
        : kind(k), what(w), per_rank(pr), init(i), v(i), ctor_slot(priv_here()) {}
    ~Tracked() { priv_dtor_ran(kind, what, this, v, init, per_rank); }
};

/* the global with constructor and destructor; its constructor counts in a static member */
struct Obj : Tracked {
    std::string s;
    static int ctor_runs; /* static members */
    static int member;
    static std::string smember;
    Obj() : Tracked(K_OBJ, "a global object", !MT_PRIVATIZE_TLS, 21), s("constructed") { ++ctor_runs; }
};
int Obj::ctor_runs;
int Obj::member = 9;
std::string Obj::smember = "static member";
Obj obj;

inline int inl_var = 4;                                                          /* C++17 inline variable */
inline Tracked inl_obj(K_INLINE, "an inline variable", !MT_PRIVATIZE_TLS, 22);   /* ... with a destructor */
inline int &inl_static()                                /* function-local static of an inline function */
{
    static int x = 6;
    return x;
}
inline Tracked &inl_static_obj()                        /* ... with a destructor, built at the first call */
{
    static Tracked o(K_FSTATIC, "a function-local static", !MT_PRIVATIZE_TLS, 23);
    return o;
}
template <class T> struct Tm {
    static T val;
    static Tracked obj;
};
template <class T> T Tm<T>::val = 8;                    /* template static members */
template <class T> Tracked Tm<T>::obj(K_TEMPLATE, "a template static member", !MT_PRIVATIZE_TLS, 24);

std::vector<int> vec(3, 0);                             /* globals that own heap blocks */
std::string str = "a string longer than the small-string buffer";
std::map<int, std::string> dict = {{1, "one"}, {2, "two"}};

/* thread_locals, per rank in every privatized variant: objects built at their first use on the rank */
thread_local int tl_ctor_runs;
struct TL : Tracked {
    std::string s = "thread_local string, long enough to be on the heap";
    TL() : Tracked(K_TL, "a thread_local object", true, 25) { ++tl_ctor_runs; }
};
thread_local TL tl;
thread_local int tl_int = 12;
inline Tracked &tl_static_obj()                         /* a thread_local function-local static */
{
    thread_local Tracked o(K_TL_FSTATIC, "a thread_local function-local static", true, 26);
    return o;
}

extern "C" void priv_announce(void)
{
    privcount_expect(K_OBJ, "global object", !MT_PRIVATIZE_TLS);
    privcount_expect(K_INLINE, "inline variable", !MT_PRIVATIZE_TLS);
    privcount_expect(K_FSTATIC, "function-local static", !MT_PRIVATIZE_TLS);
    privcount_expect(K_TEMPLATE, "template static member", !MT_PRIVATIZE_TLS);
    privcount_expect(K_TL, "thread_local object", 1);
    privcount_expect(K_TL_FSTATIC, "thread_local function-local static", 1);
}

extern "C" const void *priv_addr(void) { return MT_PRIVATIZE_TLS ? (const void *)&tl : (const void *)&obj; }

extern "C" int priv_probe(int *per_rank)
{
    *per_rank = 1;
    return MT_PRIVATIZE_TLS ? tl_int : Tm<int>::val;
}

#define CK(what, e, g) PRIV_CK(*errs, when, what, e, g)

extern "C" void priv_check_initial(int *errs)
{
    const char *when = "initial";
    CK("Obj::ctor_runs", 1, Obj::ctor_runs);
    if (!MT_PRIVATIZE_NONE) { /* the copy's constructors ran on its rank (auto), the process's outside (tls) */
        int on = MT_PRIVATIZE_TLS ? -1 : priv_here();
        CK("obj's constructor ran on", on, obj.ctor_slot);
        CK("inl_obj's constructor ran on", on, inl_obj.ctor_slot);
        CK("Tm<int>::obj's constructor ran on", on, Tm<int>::obj.ctor_slot);
        CK("tl's constructor ran on", priv_here(), tl.ctor_slot);
    }
    CK("obj.v", 21, obj.v);
    CK("obj.s", 1, obj.s == "constructed");
    CK("Obj::member", 9, Obj::member);
    CK("Obj::smember", 1, Obj::smember == "static member");
    CK("inl_var", 4, inl_var);
    CK("inl_obj.v", 22, inl_obj.v);
    CK("inl_static()", 6, inl_static());
    CK("inl_static_obj().v", 23, inl_static_obj().v);
    CK("Tm<int>::val", 8, Tm<int>::val);
    CK("Tm<long>::val", 8, Tm<long>::val);
    CK("Tm<int>::obj.v", 24, Tm<int>::obj.v);
    CK("vec.size()", 3, vec.size());
    CK("str", 1, str == "a string longer than the small-string buffer");
    CK("dict.size()", 2, dict.size());
    CK("dict[2]", 1, dict.at(2) == "two");
    CK("tl.v", 25, tl.v);
    CK("tl_ctor_runs", 1, tl_ctor_runs);
    CK("tl.s", 1, tl.s == "thread_local string, long enough to be on the heap");
    CK("tl_int", 12, tl_int);
    CK("tl_static_obj().v", 26, tl_static_obj().v);
}

extern "C" void priv_set(int v)
{
    std::string sv = std::to_string(v) + " is written into a string that does not fit in a small one";
    obj.v = v;
    obj.s = sv;
    Obj::member = v;
    Obj::smember = sv;
    inl_var = v;
    inl_obj.v = v;
    inl_static() = v;
    inl_static_obj().v = v;
    Tm<int>::val = v;
    Tm<long>::val = v;
    Tm<int>::obj.v = v;
    vec.assign((size_t)(v % 1000) + 1, v); /* a new size: reallocated */
    str = sv;
    dict[v] = sv;
    dict.erase(1);
    tl.v = v;
    tl.s = sv;
    tl_int = v;
    tl_static_obj().v = v;
}

extern "C" void priv_check(const char *when, int own, int last, int *errs)
{
    int g = PRIV_G(own, last);
    std::string sg = std::to_string(g) + " is written into a string that does not fit in a small one";
    std::string so = std::to_string(own) + " is written into a string that does not fit in a small one";
    CK("Obj::ctor_runs", 1, Obj::ctor_runs);
    CK("obj.v", g, obj.v);
    CK("obj.s", 1, obj.s == sg);
    CK("Obj::member", g, Obj::member);
    CK("Obj::smember", 1, Obj::smember == sg);
    CK("inl_var", g, inl_var);
    CK("inl_obj.v", g, inl_obj.v);
    CK("inl_static()", g, inl_static());
    CK("inl_static_obj().v", g, inl_static_obj().v);
    CK("Tm<int>::val", g, Tm<int>::val);
    CK("Tm<long>::val", g, Tm<long>::val);
    CK("Tm<int>::obj.v", g, Tm<int>::obj.v);
    CK("vec.size()", g % 1000 + 1, vec.size());
    CK("vec.back()", g, vec.back());
    CK("str", 1, str == sg);
    CK("dict[g]", 1, dict.count(g) && dict.at(g) == sg);
    CK("tl.v", own, tl.v);
    CK("tl.s", 1, tl.s == so);
    CK("tl_ctor_runs", 1, tl_ctor_runs);
    CK("tl_int", own, tl_int);
    CK("tl_static_obj().v", own, tl_static_obj().v);
}

int main(int argc, char **argv) { return priv_main(argc, argv); }
