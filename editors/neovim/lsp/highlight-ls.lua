-- highlight-ls for Neovim 0.11+: with this folder on the runtimepath,
--
--   vim.lsp.enable("highlight-ls")
--
-- starts the server for every filetype, one client per workspace root, and draws its
-- decorations. Change what you need with vim.lsp.config, which takes precedence:
--
--   vim.lsp.config("highlight-ls", { cmd = { "/path/to/highlight-ls" } })
--
-- See :help highlight-ls. Neovim loads this file when it first resolves the configuration.
local plugin = require("highlight-ls")
plugin.define_groups()
return plugin.lsp_config()
