#include <string>
#include <vector>
extern "C" void host_log(const char *what, int rank, int value);
struct Obj { int v; std::string s; Obj() : v(-1), s("constructed") { ++ctor_runs; } ~Obj() { host_log("~Obj", v, ctor_runs); }
             static int ctor_runs; static int member; };
int Obj::ctor_runs;                      // C++ static member
int Obj::member = 9;
Obj obj;                                 // global with constructor and destructor
inline int inl_var = 4;                  // C++17 inline variable (STB_GNU_UNIQUE)
inline int &inl_static() { static int x = 6; return x; }   // function static in inline function (unique)
template <class T> struct Tm { static T val; };
template <class T> T Tm<T>::val = 8;     // template static member
struct TL { int v = 1; TL() {} ~TL() { host_log("~TL", v, 0); } };
thread_local TL tl;                      // thread_local with constructor and destructor
std::vector<int> vec(3, 0);              // heap-owning global
extern "C" int cxx_set(int r)
{
    obj.v = r; obj.s = std::to_string(r); Obj::member = r; inl_var = r; inl_static() = r; Tm<int>::val = r; tl.v = r;
    vec.assign(r + 1, r);
    return 0;
}
extern "C" int cxx_check(int r)
{
    int bad = 0;
#define CK(e) do { if ((e) != r) { host_log(#e, r, (e)); bad++; } } while (0)
    CK(obj.v); CK(std::stoi(obj.s)); CK(Obj::member); CK(inl_var); CK(inl_static()); CK(Tm<int>::val); CK(tl.v);
    CK((int)vec.size() - 1); CK(vec.back());
    if (Obj::ctor_runs != 1) { host_log("ctor_runs", r, Obj::ctor_runs); bad++; }
    return bad;
}
