/* SPDX-License-Identifier: BSD-3-Clause */
/* The strategies (one file each); see lb.h for the contract and lb.c for the table. */
#ifndef VMPI_LB_STRATEGIES_H
#define VMPI_LB_STRATEGIES_H

#include "lb/lb.h"

int vmpi_lb_null(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_rotate(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_random(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_greedy(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_refine(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_greedy_refine(const vmpi_lb_problem *p, int *pe);
int vmpi_lb_metis(const vmpi_lb_problem *p, int *pe);

#endif
