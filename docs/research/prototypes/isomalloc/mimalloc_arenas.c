#include <mimalloc.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdint.h>
int main(void){
  size_t sz = (size_t)64<<20; int ok=0;
  for (int i=0;i<200;i++){
    void *p = mmap(0, sz*2, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0);
    uintptr_t a = ((uintptr_t)p + sz-1) & ~(sz-1);
    mi_arena_id_t id;
    if (!mi_manage_os_memory_ex((void*)a, sz, 1, 0, 1, -1, 1, &id)) { printf("failed at arena %d\n", i); break; }
    ok++;
  }
  printf("managed %d arenas; min alignment? \n", ok);
  /* small arena */
  void *q = mmap(0, 8<<20, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  mi_arena_id_t id2; printf("1MiB arena ok=%d\n", mi_manage_os_memory_ex(q, 1<<20, 1,0,1,-1,1,&id2));
  return 0;
}
