#include <metis.h>
#include <stdio.h>
#include <stdlib.h>
int main(void){
  enum{N=8}; idx_t nv=N*N, ncon=1, xadj[N*N+1], adj[4*N*N], vw[N*N], ew[4*N*N], part[N*N], cut; int e=0;
  for(int i=0;i<N;i++)for(int j=0;j<N;j++){int v=i*N+j; xadj[v]=e; vw[v]= (i<N/4)?4:1; /* top rows 4x work */
    int nb[4][2]={{i-1,j},{i+1,j},{i,j-1},{i,j+1}};
    for(int k=0;k<4;k++){int a=nb[k][0],b=nb[k][1]; if(a<0||b<0||a>=N||b>=N)continue; adj[e]=a*N+b; ew[e]=1000; e++;}}
  xadj[nv]=e;
  for (idx_t np=2; np<=4; np*=2) for(int alg=0; alg<2; alg++){
    idx_t opt[METIS_NOPTIONS]; METIS_SetDefaultOptions(opt); opt[METIS_OPTION_SEED]=1; opt[METIS_OPTION_UFACTOR]=10;
    int rc = alg? METIS_PartGraphKway(&nv,&ncon,xadj,adj,vw,NULL,ew,&np,NULL,NULL,opt,&cut,part)
                : METIS_PartGraphRecursive(&nv,&ncon,xadj,adj,vw,NULL,ew,&np,NULL,NULL,opt,&cut,part);
    long w[4]={0}; for(int v=0;v<nv;v++) w[part[v]]+=vw[v];
    printf("nparts=%d %s rc=%d cut=%d loads=%ld %ld %ld %ld\n",(int)np,alg?"Kway":"Recursive",rc,(int)cut,w[0],w[1],w[2],w[3]);
  }
}
