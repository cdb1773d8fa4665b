/* A shared object that is not a searchd plugin: no entry symbol. */
int not_a_plugin(void);
__attribute__((visibility("default"))) int not_a_plugin(void)
{
	return 42;
}
