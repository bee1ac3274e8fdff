# ProcessPrng(PBYTE data, SIZE_T len) -> BOOL, over advapi32's
# SystemFunction036 (RtlGenRandom), for Wine < 8.13.
	.text
	.globl ProcessPrng
ProcessPrng:
	subq $40, %rsp
	call *__imp_SystemFunction036(%rip)
	movl $1, %eax
	addq $40, %rsp
	ret
	.globl DllMain
DllMain:
	movl $1, %eax
	ret
