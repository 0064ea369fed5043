" highlight-ls for Vim with ALE (https://github.com/dense-analysis/ale, Debian: vim-ale):
" registers the server as an LSP linter for the filetypes in g:highlight_ls_filetypes, so the
" matches of rules that have a `severity` show as ALE problems (signs, highlights, :lopen).
"
"   let g:highlight_ls_command = '/path/to/highlight-ls'   " default: highlight-ls on PATH
"   source /path/to/highlight-ls/editors/vim/highlight-ls.vim
if exists('g:loaded_highlight_ls_ale') || empty(globpath(&runtimepath, 'autoload/ale/linter.vim'))
  finish
endif
let g:loaded_highlight_ls_ale = 1

" The workspace root: the nearest folder with .highlights.json or .git, else the file's own.
function! HighlightLsProjectRoot(buffer) abort
  let l:config = ale#path#FindNearestFile(a:buffer, '.highlights.json')
  if !empty(l:config)
    return fnamemodify(l:config, ':h')
  endif
  let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')
  if !empty(l:git)
    return fnamemodify(l:git, ':h:h')
  endif
  return expand('#' . a:buffer . ':p:h')
endfunction

" ALE defines linters per filetype; it has no "every filetype".
let s:filetypes = get(g:, 'highlight_ls_filetypes', [
      \ 'text', 'markdown', 'gitcommit', 'c', 'cpp', 'go', 'java', 'javascript', 'typescript',
      \ 'python', 'ruby', 'rust', 'sh', 'swift', 'vim', 'lua', 'yaml', 'toml', 'json', 'html', 'css'])

" For a few filetypes ALE runs only the linters of its own default list unless g:ale_linters
" names them; these are ALE 3.3's lists, which highlight-ls joins. A list of your own in
" g:ale_linters is kept and gains highlight-ls.
let s:ale_default_linters = {
      \ 'go': ['gofmt', 'golint', 'gopls', 'govet'],
      \ 'json': ['jsonlint', 'spectral', 'vscodejson'],
      \ 'python': ['flake8', 'mypy', 'pylint', 'pyright', 'ruff'],
      \ 'rust': ['cargo', 'rls'],
      \ 'text': [],
      \ 'yaml': ['spectral', 'yaml-language-server', 'yamllint'],
      \ }
if !exists('g:ale_linters')
  let g:ale_linters = {}
endif

for s:filetype in s:filetypes
  let s:chosen = get(g:ale_linters, s:filetype, get(s:ale_default_linters, s:filetype, 'all'))
  if type(s:chosen) == v:t_list && index(s:chosen, 'highlight-ls') < 0
    let g:ale_linters[s:filetype] = s:chosen + ['highlight-ls']
  endif
  call ale#linter#Define(s:filetype, {
        \ 'name': 'highlight-ls',
        \ 'lsp': 'stdio',
        \ 'executable': {buffer -> get(g:, 'highlight_ls_command', 'highlight-ls')},
        \ 'command': '%e',
        \ 'project_root': function('HighlightLsProjectRoot'),
        \ })
endfor
